"""The fast layer: the rank checks vectorised with numpy (the checker's production path).

Each function here decides the same question as a kernel twin (certify/checker/kernel/) on
the same data, exactly (integers mod p below 2^31, float64 BLAS only where every partial sum
is an exact integer); tests compare the two on random and tampered certificates. Imports the
kernel layer only."""
