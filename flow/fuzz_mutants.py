"""The mutations of the fuzz lane (flow/fuzz.py) and what each vendor format expects of its own output.

Mutation operators, all drawn from one random.Random, so that a seed names every mutant:
  binary files (NVIDIA loadables, firmware ELFs): truncation, a byte flipped in the header, a byte flipped in
      the data, a size or offset field set to an extreme (the fields are found by reading the format:
      flatbuffer memory and address entries, ELF header and program headers);
  text files (.cfg and its .dat, cnn.c, main.c, sampleoutput.h, sampledata.h, weights.h, conf.json):
      truncation, a line removed, a line duplicated, a byte flipped, a number set to an extreme.

What a format expects of its output (`expectation`): the known answer inside the input, when the format carries
one. A mutant that changes it is judged by `implied`: may a run pass with the mutated expectation? Only when
every value it still states is one the unmutated expectation states too (for masked words: a mask no wider and
the value under it equal), so the correct output still satisfies it. Otherwise the expected result is corrupt and
a pass is a silent pass. Formats without an answer inside (loadables: NVIDIA's golden file lies beside the
loadable and is not mutated; pulp-nnx conf.json: the data come from the seed) expect nothing of their own.
"""
import re
import struct

EXTREMES_32 = (0, 1, 0x7fffffff, 0x80000000, 0xffffffff)
EXTREMES_64 = (0, 1, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0x10000000000)
TEXT_EXTREMES = ('0', '-1', '0xffffffff', '0xffffffffffffffff', '2147483648', '99999999999999999999', '0x80000000')
NUMBER = re.compile(rb'0[xX][0-9a-fA-F]+|\d+')


# ---- generic operators ------------------------------------------------------------------------------------
def truncate(data, rnd, lo=0):
    cut = rnd.randrange(lo, len(data)) if len(data) > lo else 0
    return data[:cut], f'truncated to {cut} of {len(data)} bytes'


def flip(data, rnd, lo, hi, where):
    hi = min(hi, len(data))
    if hi <= lo:
        return truncate(data, rnd)
    at = rnd.randrange(lo, hi)
    x = rnd.randrange(1, 256)
    b = bytearray(data)
    b[at] ^= x
    return bytes(b), f'{where} byte {at} xor 0x{x:02x} (0x{data[at]:02x} -> 0x{b[at]:02x})'


def set_field(data, rnd, fields):
    """fields: (offset, width, name) of size/offset fields; one set to an extreme of its width."""
    if not fields:
        return flip(data, rnd, 0, len(data), 'data')
    at, width, name = rnd.choice(fields)
    value = rnd.choice(EXTREMES_64 if width == 8 else EXTREMES_32 if width == 4 else (0, 1, 0x7fff, 0xffff))
    b = bytearray(data)
    struct.pack_into({8: '<Q', 4: '<I', 2: '<H'}[width], b, at, value)
    return bytes(b), f'{name} (offset {at}, {width} bytes) = 0x{value:x}'


def text_mutation(data, rnd, op):
    lines = data.split(b'\n')
    if op == 'truncate':
        return truncate(data, rnd)
    if op == 'flip':
        return flip(data, rnd, 0, len(data), 'text')
    if op in ('drop-line', 'dup-line'):
        n = rnd.randrange(len(lines))
        what = lines[n][:60].decode('utf-8', 'replace')
        if op == 'drop-line':
            return b'\n'.join(lines[:n] + lines[n + 1:]), f'line {n + 1} removed ({what!r})'
        return b'\n'.join(lines[:n + 1] + lines[n:]), f'line {n + 1} duplicated ({what!r})'
    nums = list(NUMBER.finditer(data))
    if not nums:
        return flip(data, rnd, 0, len(data), 'text')
    m = rnd.choice(nums)
    new = rnd.choice(TEXT_EXTREMES).encode()
    line = data.count(b'\n', 0, m.start()) + 1
    return data[:m.start()] + new + data[m.end():], f'line {line}: number {m.group().decode()} -> {new.decode()}'


TEXT_OPS = ('truncate', 'flip', 'drop-line', 'dup-line', 'number')
BINARY_OPS = ('truncate', 'flip-header', 'flip-data', 'field')


def binary_mutation(data, rnd, op, header_len, fields, data_ranges=None):
    """data_ranges: the (start, end) file ranges a data flip picks from (default: all after the header)."""
    if op == 'truncate':
        return truncate(data, rnd)
    if op == 'flip-header':
        return flip(data, rnd, 0, header_len, 'header')
    if op == 'flip-data':
        lo, hi = rnd.choice(data_ranges) if data_ranges else (header_len, len(data))
        return flip(data, rnd, lo, hi, 'data')
    return set_field(data, rnd, fields)


# ---- NVIDIA loadables (flatbuffers; schema order as tb/nvdla/fw/nvdla_loadable.c reads it) --------------------
def _u32(b, o):
    return struct.unpack_from('<I', b, o)[0]


def _field(b, t, i):
    vt = t - struct.unpack_from('<i', b, t)[0]
    if 4 + 2 * i >= struct.unpack_from('<H', b, vt)[0]:
        return 0
    fo = struct.unpack_from('<H', b, vt + 4 + 2 * i)[0]
    return t + fo if fo else 0


def _tables(b, t, i):
    f = _field(b, t, i)
    if not f:
        return []
    v = f + _u32(b, f)
    return [v + 4 + 4 * k + _u32(b, v + 4 + 4 * k) for k in range(_u32(b, v))]


def loadable_fields(data):
    """The size and offset fields of a loadable: each memory entry's size and content offsets, each address
    entry's offset and size, each blob's length, and the root offset."""
    b, out = bytes(data), [(0, 4, 'root table offset')]
    root = _u32(b, 0)
    for k, m in enumerate(_tables(b, root, 2)):           # memory entries: size (3), content offsets (6)
        f = _field(b, m, 3)
        if f:
            out.append((f, 8, f'memory entry {k} size'))
        f = _field(b, m, 6)
        if f:
            v = f + _u32(b, f)
            out += [(v + 4 + 8 * j, 8, f'memory entry {k} content offset {j}') for j in range(_u32(b, v))]
    for k, a in enumerate(_tables(b, root, 3)):           # address entries: offset (2), size (3)
        for i, name in ((2, 'offset'), (3, 'size')):
            f = _field(b, a, i)
            if f:
                out.append((f, 8, f'address entry {k} {name}'))
    for k, t in enumerate(_tables(b, root, 5)):           # blobs: the data vector's length
        f = _field(b, t, 5)
        if f:
            out.append((f + _u32(b, f), 4, f'blob {k} length'))
    return out


def loadable_header_len(data):
    """The bytes before the first blob's data: root table, vtables and the entry tables (the loadable's 'header')."""
    b = bytes(data)
    starts = [(_field(b, t, 5) + _u32(b, _field(b, t, 5))) for t in _tables(b, _u32(b, 0), 5) if _field(b, t, 5)]
    return min(starts) if starts else min(256, len(b))


# ---- ELF (32-bit little-endian: the MAX78000's Cortex-M4 firmware) ------------------------------------------
def elf_fields(data):
    """The ELF header's offsets and counts, and every program header's offset, addresses and sizes."""
    b = bytes(data)
    out = [(28, 4, 'e_phoff'), (32, 4, 'e_shoff'), (24, 4, 'e_entry'), (44, 2, 'e_phnum'), (48, 2, 'e_shnum'),
           (42, 2, 'e_phentsize'), (50, 2, 'e_shstrndx')]
    phoff, phentsize, phnum = _u32(b, 28), struct.unpack_from('<H', b, 42)[0], struct.unpack_from('<H', b, 44)[0]
    for k in range(phnum):
        p = phoff + k * phentsize
        out += [(p + o, 4, f'segment {k} {n}') for o, n in ((4, 'p_offset'), (8, 'p_vaddr'), (16, 'p_filesz'),
                                                            (20, 'p_memsz'))]
    return out


def elf_header_len(data):
    b = bytes(data)
    return _u32(b, 28) + struct.unpack_from('<H', b, 42)[0] * struct.unpack_from('<H', b, 44)[0]


def elf_symbol_bytes(data, name):
    """(file offset, size) of a symbol's bytes in an ELF32 file, read from its section headers and symbol table,
    or None."""
    b = bytes(data)
    shoff, shentsize, shnum = _u32(b, 32), struct.unpack_from('<H', b, 46)[0], struct.unpack_from('<H', b, 48)[0]
    secs = [struct.unpack_from('<IIIIIIIIII', b, shoff + i * shentsize) for i in range(shnum)]
    for s in secs:
        if s[1] != 2:                                   # SHT_SYMTAB
            continue
        strtab = secs[s[6]]
        for k in range(s[5] // 16):
            st_name, st_value, st_size, st_info, _, st_shndx = struct.unpack_from('<IIIBBH', b, s[4] + 16 * k)
            o = strtab[4] + st_name
            if b[o:b.index(b'\0', o)] == name.encode() and 0 < st_shndx < len(secs):
                sec = secs[st_shndx]
                if st_info & 0xf == 2:                  # STT_FUNC: bit 0 of a Thumb function's address is no byte
                    st_value &= ~1
                return sec[4] + st_value - sec[3], st_size
    return None


# ---- expectations: the known answer a format carries -----------------------------------------------------
def _records(words):
    """ai8xize's known-answer records (address, mask, count, values...; 0 ends): {address: (mask, value)}, or
    None when the list does not read as records."""
    out, i = {}, 0
    while i < len(words):
        addr = words[i]
        if addr == 0:
            return out
        if i + 3 > len(words):
            return None
        mask, n = words[i + 1], words[i + 2]
        if i + 3 + n > len(words):
            return None
        for k in range(n):
            out[(addr + 4 * k) & 0xffffffff] = (mask, words[i + 3 + k])
        i += 3 + n
    return None


def ai8x_expectation(files):
    """SAMPLE_OUTPUT of sampleoutput.h as records, or 'unreadable'."""
    text = files.get('sampleoutput.h', b'').decode('latin-1')
    text = re.sub(r'//[^\n]*', '', text)
    m = re.search(r'#define\s+SAMPLE_OUTPUT\s*\{(.*?)\}', text.replace('\\\n', ' '), re.S)
    if not m:
        return 'unreadable'
    try:
        words = [int(w.strip(), 0) & 0xffffffff for w in m.group(1).split(',') if w.strip()]
    except ValueError:
        return 'unreadable'
    return _records(words) or 'unreadable'


def elf_expectation(files, where):
    """The firmware's known answer: the bytes of its check_output() (the SDK's CNN examples compare the output
    with constants in the function's code and literal pool), read at the unmutated file's offsets. Any change to
    them is taken as a corrupt expectation: which code changes keep the check is not decided here."""
    off, size = where
    data = files['fw.elf']
    return data[off:off + size] if len(data) >= off + size else 'unreadable'


def elf_data_ranges(data):
    """The file ranges of the ELF's loaded segments (PT_LOAD): what the emulated core runs and reads."""
    b = bytes(data)
    phoff, phentsize, phnum = _u32(b, 28), struct.unpack_from('<H', b, 42)[0], struct.unpack_from('<H', b, 44)[0]
    out = []
    for k in range(phnum):
        p_type, p_offset, _, _, p_filesz = struct.unpack_from('<IIIII', b, phoff + k * phentsize)
        if p_type == 1 and p_filesz:
            out.append((p_offset, p_offset + p_filesz))
    return out


CHECK_CRC = re.compile(rb'\bcheck_crc\s*\(([^;]*)\)\s*;')


def cfg_expectation(files):
    """The .cfg's check_crc statements (the trace's own expected CRC of an output region), as a set of their
    arguments; 'unreadable' when a line that names check_crc does not read as one."""
    out = set()
    for name, data in files.items():
        if not name.endswith('.cfg'):
            continue
        text = re.sub(rb'//[^\n]*', b'', data)
        for line in text.split(b'\n'):
            if b'check' in line and not CHECK_CRC.search(line):
                return 'unreadable'
        out |= {tuple(a.strip() for a in m.group(1).split(b',')) for m in CHECK_CRC.finditer(text)}
    return frozenset(out)


def implied(orig, mut):
    """May a run pass with expectation mut? Only when everything mut states, orig states too."""
    if mut == orig:
        return True
    if mut == 'unreadable' or orig == 'unreadable':
        return False
    if isinstance(mut, frozenset):
        return mut <= orig
    if isinstance(mut, bytes):
        return False
    for addr, (mask, value) in mut.items():
        if addr not in orig:
            return False
        omask, ovalue = orig[addr]
        if mask & ~omask or (ovalue & mask) != value:
            return False
    return True
