// Package readme keeps the README's code samples honest: a sample is the
// code of a file between the lines "// BEGIN README" and "// END README",
// and the README must show it as it is. The examples' tests call Check, so
// a sample that drifts from the code that compiles fails them.
package readme

import (
	"fmt"
	"os"
	"strings"
)

// Sample returns the code of file between its README markers. A file
// without both markers, or with nothing between them, is an error: a check
// of an empty sample would pass whatever the README says.
func Sample(file string) (string, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	_, rest, ok := strings.Cut(string(src), "// BEGIN README\n")
	if !ok {
		return "", fmt.Errorf("%s has no // BEGIN README line", file)
	}
	sample, _, ok := strings.Cut(rest, "// END README")
	if !ok {
		return "", fmt.Errorf("%s has no // END README line", file)
	}
	if sample = strings.TrimSpace(sample); sample == "" {
		return "", fmt.Errorf("%s has nothing between its README markers", file)
	}
	return sample, nil
}

// Check reports whether the README at readmePath shows file's sample.
func Check(file, readmePath string) error {
	sample, err := Sample(file)
	if err != nil {
		return err
	}
	text, err := os.ReadFile(readmePath)
	if err != nil {
		return err
	}
	if !strings.Contains(string(text), sample) {
		return fmt.Errorf("%s does not show %s's code between its README markers", readmePath, file)
	}
	return nil
}
