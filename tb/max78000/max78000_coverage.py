#!/usr/bin/env python3
"""Merge max78000 functional-coverage files (tb/max78000/max78000_cov.c, written with +cov=<dir>/) and report holes.

usage: max78000_coverage.py [--require-all] [--holes N] <dir-or-file>...
Bins that cannot be hit are waived, each with its reason, in tb/max78000/max78000_cov_waivers.txt.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
import fcov_report  # noqa: E402

if __name__ == '__main__':
    sys.exit(fcov_report.main('max78000', os.path.join(HERE, 'max78000_cov_waivers.txt'), __doc__))
