#!/usr/bin/env python3
"""Merge nvdla functional-coverage files (tb/nvdla/nvdla_cov.c, written with +cov=<dir>/) and report holes.

usage: nvdla_coverage.py [--require-all] [--holes N] <dir-or-file>...
Bins that cannot be hit are waived, each with its reason, in tb/nvdla/nvdla_cov_waivers.txt.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
import fcov_report  # noqa: E402

if __name__ == '__main__':
    sys.exit(fcov_report.main('nvdla', os.path.join(HERE, 'nvdla_cov_waivers.txt'), __doc__))
