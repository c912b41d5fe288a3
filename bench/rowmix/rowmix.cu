/* rowmix, hand-written CUDA (see rowmix.h): sparserows' vector CSR kernel, one warp per row. */
#include "rowmix.h"
#include "../sparserows/sparserows.cu"
