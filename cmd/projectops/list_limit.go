package main

import "iter"

// firstN collects seq's items, at most limit of them (0: all), never
// nil so --json prints [] for none. It stops as the limit is reached: a
// next page could only fail a listing already complete.
func firstN[T any](seq iter.Seq2[T, error], limit int) ([]T, error) {
	all := []T{}
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		all = append(all, v)
		if limit > 0 && len(all) == limit {
			break
		}
	}
	return all, nil
}
