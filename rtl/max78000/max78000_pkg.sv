// max78000_pkg: shared types of the MAX78000 CNN RTL (APB decode result, decoded layer parameters).
package max78000_pkg;
  // APB decode of the memory windows (spec 1.3). Registers are decoded by the generated register files.
  typedef enum logic [2:0] {
    M_NONE, M_BRAM, M_TRAM, M_MRAM, M_DSRAM
  } mem_kind_e;

  typedef struct packed {
    mem_kind_e   kind;
    logic [1:0]  q;       // quadrant
    logic [3:0]  proc;    // processor i (TRAM, MRAM)
    logic [3:0]  g;       // global data memory (DSRAM)
    logic [12:0] idx;     // BRAM entry, TRAM entry, MRAM word, SRAM word
    logic [1:0]  part;    // MRAM 4-byte part (0: bits 71:64, 1: 63:32, 2: 31:0, 3: commit)
  } mem_dec_t;

  // Decoded per-quadrant layer parameters (spec 2.3, 3.4, 3.5), latched at the start of each layer.
  typedef struct packed {
    logic [1:0]  rpad, cpad;
    logic [10:0] h_in, w_in;      // pre-pool plane
    logic [4:0]  ph, pw;          // pool window (1 = none)
    logic [4:0]  st;              // pooling step 1..16
    logic [10:0] h_p, w_p;        // pooled plane
    logic [3:0]  kh, kw;
    logic [3:0]  t;               // taps
    logic [3:0]  osad;
    logic [10:0] h_out, w_out;
    logic [3:0]  qb;              // weight bits 8/1/2/4
    logic [8:0]  x;               // input passes 1..256
    logic [15:0] nk;              // output slots
    logic [9:0]  s;               // slots per output pass
    logic [15:0] msad;
    logic        maxpool, poolrnd, chw, relu, oabs, bigdwrt, bias_en, writes, valid;
    logic [8:0]  npool;           // ph*pw
    logic [15:0] mask_en, pro_en;
    logic [3:0]  cnnsi;
    logic [11:0] bsad;
    logic signed [5:0] shift;     // s of D25
    logic [16:0] wbase, moff, choff;
    logic [12:0] rptr;
    logic [4:0]  inc1;            // wptr_inc + 1
    // [M3] element-wise (3.11), pass-through / timeslots (3.11), deconvolution (3.5)
    logic [4:0]  nop;             // operands 1..16
    logic        prepool;         // pool each operand before combining
    logic [1:0]  efunc;
    logic        passthru;        // write pooled/combined values in timeslots, no convolution
    logic [16:0] toff;
    logic        deconv;
    logic [10:0] h_up, w_up;      // up-sampled plane (deconv), else the pooled plane
    logic [16:0] roll;            // streaming: FBUF of this layer (its circular input buffer), 0 = none
    logic [16:0] roll_next;       // FBUF of the next layer: this layer's writes wrap at it
  } lparams_t;
endpackage
