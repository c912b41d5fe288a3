// The emulator's out-of-line functions, defined once for ompgpu's runtime library: compiled with
// -DOMPGPU_EMU_RUNTIME_LIBRARY=2 -include cuda_emu.h, so that the header's OMPGPU_EMU_LINKED
// functions are ordinary external definitions here (see cuda_emu.h). Nothing else is needed.
