"""NumPy references the Python API tests compare compiled functions with."""
import numpy as np


def jacobi_1d(u: np.ndarray, tol: float, max_iter: int) -> tuple[np.ndarray, int]:
    """Sweeps v[i] = (u[i-1] + u[i+1]) / 2 until the largest change is below tol (or max_iter
    sweeps): the final values and the number of sweeps."""
    u, it = u.copy(), 0
    while it < max_iter:
        v = u.copy()
        v[1:-1] = 0.5 * (u[:-2] + u[2:])
        d = np.max(np.abs(v[1:-1] - u[1:-1]))
        u, it = v, it + 1
        if d < tol:
            break
    return u, it
