// Package stats holds the statistics that simdrl's report puts on runs over
// seeds, as Agarwal et al. define them ("Deep Reinforcement Learning at the
// Edge of the Statistical Precipice", NeurIPS 2021) and their rliable
// library computes them: the interquartile mean, the probability of
// improvement, performance profiles (score distributions) and stratified
// bootstrap confidence intervals; with the mean, the standard deviation
// and the minimum beside them.
//
// Scores come as a matrix of runs × tasks, Scores[run][task] (rliable's
// layout): for simdrl a run is a seed and a task is a level (or one level
// alone, a matrix of one column). Every function is pure: no I/O, no global
// state; the bootstraps draw from the *rand.Rand they are given
// (math/rand/v2, a PCG for reproducible results).
//
// scripts/rliable_check.py computes the same figures with numpy and scipy
// from the paper's definitions; the tests compare the two on the fixtures
// in testdata.
package stats
