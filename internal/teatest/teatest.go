// Package teatest runs a Bubble Tea model as a real program for an
// end-to-end test: input is sent as messages, the output is what the
// program wrote to its terminal, and the final model is what Run
// returned. It offers the subset of x/exp/teatest's API the project's
// tests use, with the same names, so that no library module requires a
// test-only module of someone else's (a host would pay for it, and for
// the x/exp/golden it brings, in its own go.mod).
package teatest

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestModel is a model running as a program.
type TestModel struct {
	program *tea.Program
	out     *lockedBuffer
	done    chan struct{}
	final   tea.Model
	err     error
}

// TestOption configures NewTestModel.
type TestOption func(*testOptions)

type testOptions struct{ w, h int }

// WithInitialTermSize sets the terminal's size (default 80×24); the
// model gets it as its first WindowSizeMsg.
func WithInitialTermSize(w, h int) TestOption {
	return func(o *testOptions) { o.w, o.h = w, h }
}

// NewTestModel starts m as a program with no terminal of its own: no
// input but what the test sends, no signals, its output kept.
func NewTestModel(tb testing.TB, m tea.Model, opts ...TestOption) *TestModel {
	tb.Helper()
	o := testOptions{w: 80, h: 24}
	for _, opt := range opts {
		opt(&o)
	}
	tm := &TestModel{out: &lockedBuffer{}, done: make(chan struct{})}
	tm.program = tea.NewProgram(m, tea.WithInput(&bytes.Buffer{}), tea.WithOutput(tm.out),
		tea.WithoutSignals(), tea.WithWindowSize(o.w, o.h))
	go func() {
		defer close(tm.done)
		tm.final, tm.err = tm.program.Run()
	}()
	tm.program.Send(tea.WindowSizeMsg{Width: o.w, Height: o.h})
	return tm
}

// Send sends msg to the program.
func (tm *TestModel) Send(msg tea.Msg) { tm.program.Send(msg) }

// Type sends each rune of s as a key press.
func (tm *TestModel) Type(s string) {
	for _, r := range s {
		tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// Output returns the program's output. Reading it consumes what was
// read: each read gives what was written since the last one.
func (tm *TestModel) Output() io.Reader { return tm.out }

// FinalOpt configures FinalModel.
type FinalOpt func(*time.Duration)

// WithFinalTimeout fails the test when the program has not ended within d
// (default: wait for ever).
func WithFinalTimeout(d time.Duration) FinalOpt { return func(t *time.Duration) { *t = d } }

// FinalModel waits for the program to end and returns its last model.
func (tm *TestModel) FinalModel(tb testing.TB, opts ...FinalOpt) tea.Model {
	tb.Helper()
	var timeout time.Duration
	for _, opt := range opts {
		opt(&timeout)
	}
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-tm.done:
	case <-expired:
		tb.Fatalf("the program did not end within %s", timeout)
	}
	if tm.err != nil {
		tb.Fatalf("the program failed: %v", tm.err)
	}
	return tm.final
}

// WaitForOption configures WaitFor.
type WaitForOption func(*waitOptions)

type waitOptions struct{ duration, interval time.Duration }

// WithDuration sets how long WaitFor waits (default 1s).
func WithDuration(d time.Duration) WaitForOption { return func(o *waitOptions) { o.duration = d } }

// WithCheckInterval sets how often WaitFor looks (default 50ms).
func WithCheckInterval(d time.Duration) WaitForOption { return func(o *waitOptions) { o.interval = d } }

// WaitFor reads r until condition holds for everything read by this call
// so far, and fails the test, showing that output, when it does not
// within the duration.
func WaitFor(tb testing.TB, r io.Reader, condition func([]byte) bool, opts ...WaitForOption) {
	tb.Helper()
	o := waitOptions{duration: time.Second, interval: 50 * time.Millisecond}
	for _, opt := range opts {
		opt(&o)
	}
	var seen bytes.Buffer
	deadline := time.Now().Add(o.duration)
	for {
		if _, err := seen.ReadFrom(r); err != nil {
			tb.Fatal(fmt.Errorf("WaitFor: %w", err))
		}
		if condition(seen.Bytes()) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("WaitFor: the condition did not hold within %s; the output:\n%s", o.duration, seen.String())
		}
		time.Sleep(o.interval)
	}
}

// lockedBuffer is a buffer the program writes and the test reads at
// once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Read(p)
}
