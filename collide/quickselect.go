package collide

// quickselect partially orders s so that s[k] is the element a full sort by less would put there,
// with every element before it not greater and every one after not smaller (Hoare partitioning
// around a median-of-three pivot). less must be a strict total order — break ties by index — so
// that the split is the same on every run.
func quickselect[T any](s []T, k int, less func(a, b T) bool) {
	lo, hi := 0, len(s)-1
	for lo < hi {
		m := lo + (hi-lo)/2
		if less(s[m], s[lo]) {
			s[m], s[lo] = s[lo], s[m]
		}
		if less(s[hi], s[lo]) {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if less(s[hi], s[m]) {
			s[hi], s[m] = s[m], s[hi]
		}
		pivot := s[m]
		i, j := lo, hi
		for i <= j {
			for less(s[i], pivot) {
				i++
			}
			for less(pivot, s[j]) {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
