//go:build cgo && openblas

package main

/*
#cgo LDFLAGS: -lopenblas
#include <cblas.h>

extern char* openblas_get_corename(void);
extern void openblas_set_num_threads(int);

// generation does a generation's linear algebra the BLAS way: Y = Z·Aᵀ
// (row-major: the λ vectors of Z times A), then A ← α·A (dscal) and
// A ← A + β·p·vᵀ (dger).
static void generation(int n, int k, double *a, double *z, double *y, double *p, double *v) {
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, k, n, n, 1.0, z, n, a, n, 0.0, y, n);
	cblas_dscal(n * n, 0.999, a, 1);
	cblas_dger(CblasRowMajor, n, n, 1e-3, p, 1, v, 1, a, n);
}
*/
import "C"

import "unsafe"

// haveOpenBLAS reports whether this build links OpenBLAS (build tag openblas).
const haveOpenBLAS = true

// openblasCore names the kernels OpenBLAS picked (set OPENBLAS_CORETYPE to
// choose them) and limits it to one thread.
func openblasCore() string {
	C.openblas_set_num_threads(1)
	return C.GoString(C.openblas_get_corename())
}

// openblasGeneration runs dgemm + dscal + dger on the given buffers.
func openblasGeneration(n, k int, a, z, y, p, v []float64) {
	C.generation(C.int(n), C.int(k), (*C.double)(unsafe.Pointer(&a[0])), (*C.double)(unsafe.Pointer(&z[0])),
		(*C.double)(unsafe.Pointer(&y[0])), (*C.double)(unsafe.Pointer(&p[0])), (*C.double)(unsafe.Pointer(&v[0])))
}
