"""Experiment only: build a C file with its generated device code replaced by an edited copy.
python edit_build.py EDITED.cu -- <ompgpu cc args>"""
import dataclasses, sys
from ompgpu.options import parse_cc_args
from ompgpu.driver import translate, compile_and_link
edited = open(sys.argv[1]).read()
opts = parse_cc_args(sys.argv[3:])
src = [f for f in opts.inputs if f.endswith('.c')][0]
t = translate(src, opts)
t = dataclasses.replace(t, device_cu=edited)
sys.exit(compile_and_link(opts, {src: t}))
