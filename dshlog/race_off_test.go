//go:build !race

package dshlog

// raceBuild: the tests run under the race detector.
const raceBuild = false
