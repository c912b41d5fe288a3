#ifndef STENCIL_H
#define STENCIL_H
#pragma omp declare target
double smooth(double left, double centre, double right);
#pragma omp end declare target
/* One explicit heat step over x[1..n] (x[0] and x[n+1] are halos); returns sum of x. */
double heat_step(double *x, double *tmp, int n);
#endif
