/* rowmix, OpenMP offload (see rowmix.h): sparserows' nested form, `target teams distribute` over
 * the rows, each row's nonzeros summed by the team (`parallel for reduction(+:)`). */
#include "rowmix.h"
#include "../sparserows/sparserows.c"
