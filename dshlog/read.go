package dshlog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// maxHeaderLine bounds the header line listing reads.
const maxHeaderLine = 1 << 20

// newLog is the engine under a store's reads: logs of maxRecordBytes
// lines, zstd ones read frame by frame.
func newLog[T jsonlog.Indexer](s *Store, cacheBytes int64, newIx func(string) T) *jsonlog.Log[T] {
	l := jsonlog.New(jsonlog.Limits{MaxLogBytes: s.maxLogBytes, MaxLineBytes: maxRecordBytes,
		CacheBytes: max(cacheBytes, 1), ReadBytes: s.readBytes}, newIx)
	l.SetFraming(func(path string) jsonlog.Frames {
		if strings.HasSuffix(path, ".zstd") {
			return zstdFrames{s.maxLogBytes}
		}
		return nil
	})
	return l
}

// checkDirs refuses a log whose project or session directory has become
// a symbolic link since it was listed: nothing below the root is
// followed.
func (s *Store) checkDirs(path string) error {
	if s.root == "" {
		return nil
	}
	sdir := filepath.Dir(path)
	for _, dir := range []string{filepath.Dir(sdir), sdir} {
		fi, err := os.Lstat(dir)
		if err != nil {
			return ioErr(path, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return notFollowed(dir)
		}
	}
	return nil
}

// enginePath is the path the engine opens for the log at path: OpenFile's
// path may be a link its caller chose, followed at each read; nothing
// below a root is.
func (s *Store) enginePath(path string) (string, error) {
	if err := s.checkDirs(path); err != nil {
		return "", err
	}
	if s.root != "" {
		return path, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", ioErr(path, err)
	}
	return real, nil
}

// statKey is the key of path now, without opening it.
func (s *Store) statKey(path string) (jsonlog.Key, error) {
	if err := s.checkDirs(path); err != nil {
		return jsonlog.Key{}, err
	}
	stat := os.Lstat
	if s.root == "" {
		stat = os.Stat // OpenFile's path may be a link the caller chose
	}
	fi, err := stat(path)
	if err != nil {
		return jsonlog.Key{}, ioErr(path, err)
	}
	return jsonlog.KeyOf(fi), nil
}

// errChanged: a log changed under a read in a way it cannot follow; the
// read is made again.
var errChanged = errors.New("the file changed while it was read")

// errKeptChanging: a log changed under every read whileChanged made; no
// read around it tries again.
var errKeptChanging = fmt.Errorf("%w, each time it was read", errChanged)

// engineErr is a *LogError for an error of the engine about the log at
// path.
func (s *Store) engineErr(path string, err error) error {
	var fe *jsonlog.FileError
	if !errors.As(err, &fe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, jsonlog.ErrChanged) {
		return errorOf(path, err)
	}
	detail := fe.Err.Error()
	switch {
	case errors.Is(err, jsonlog.ErrNotRegular):
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 && s.root != "" {
			return notFollowed(path)
		}
		if fi, serr := os.Stat(path); serr == nil {
			if nerr := notRegular(path, fi); nerr != nil {
				return nerr
			}
		}
		return &LogError{Path: path, Err: ErrNotRegular, Detail: detail}
	case errors.Is(err, jsonlog.ErrTooLarge):
		key, _ := s.statKey(path)
		if key.Size > s.maxLogBytes {
			return logErr(path, 0, ErrTooLarge, "%d bytes on disk, over the cap of %d", key.Size, s.maxLogBytes)
		}
		return s.capErr(path, strings.HasSuffix(path, ".zstd"), key.Size)
	case errors.Is(err, jsonlog.ErrCorrupt):
		return logErr(path, 0, ErrCorrupt, "%v", fe.Err)
	}
	return ioErr(path, err)
}

// header reads (or recalls) a log's header. The cache key has the file's
// ctime and mode, so an error (a permission, a header being written) is
// not kept past a change of the file.
func (s *Store) header(ctx context.Context, path string, fi os.FileInfo) Info {
	key := jsonlog.KeyOf(fi)
	s.mu.Lock()
	c, ok := s.headers[path]
	s.mu.Unlock()
	if ok && c.key == key {
		return c.info
	}
	info := Info{Path: path}
	line, opened, err := s.firstLine(ctx, path)
	if err == nil {
		var h header
		h, info.Warnings, err = parseHeader(path, line)
		if err == nil {
			info.Header = headerOf(h)
			if h.ParentSession != nil {
				info.Parent = *h.ParentSession
			}
		}
	}
	info.Err = err
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return info // the read was stopped: nothing is known of the file
	}
	if opened != (jsonlog.Key{}) {
		key = opened
	}
	s.mu.Lock()
	s.headers[path] = cachedHeader{key, info}
	s.mu.Unlock()
	return info
}

// firstLine reads the header line: the first line of a raw log, or of
// the first zstd frame's text, without reading the rest of the log.
func (s *Store) firstLine(ctx context.Context, path string) ([]byte, jsonlog.Key, error) {
	real, err := s.enginePath(path)
	if err != nil {
		return nil, jsonlog.Key{}, err
	}
	line, key, err := s.titles.Head(ctx, real, maxHeaderLine)
	isZstd := strings.HasSuffix(path, ".zstd")
	switch {
	case err != nil && !errors.Is(err, jsonlog.ErrTooLarge) && !errors.Is(err, jsonlog.ErrCorrupt):
		return nil, key, s.engineErr(path, err)
	case (err != nil || line == nil) && isZstd:
		return nil, key, logErr(path, 1, ErrHeader, "the first zstd frame is missing, unreadable or has no whole line")
	case err != nil || line == nil:
		return nil, key, logErr(path, 1, ErrHeader, "no complete header line")
	}
	return line, key, nil
}

// retry waits before attempt+1 of a read the file changed under.
func retry(ctx context.Context, attempt int) error {
	select {
	case <-time.After(retryPause << attempt):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// retryPause is the first wait before reading a changed file again.
var retryPause = 5 * time.Millisecond

// whileChanged runs attempt, again (up to five times, waiting a little
// longer each time) while it fails because the log changed under it;
// attempt returns the log's path, which errors name. A log that keeps
// changing is an error too.
func whileChanged(ctx context.Context, attempt func() (path string, err error)) error {
	for n := 0; ; n++ {
		path, err := attempt()
		switch {
		case !errors.Is(err, errChanged) || errors.Is(err, errKeptChanging):
			return err // an inner whileChanged has given up already
		case n == 5:
			return ioErr(path, errKeptChanging)
		}
		if err := retry(ctx, n); err != nil {
			return ioErr(path, err)
		}
	}
}

// use runs read over the index of session id's log, brought up to date
// with the file, again while the file changes under the read
// (whileChanged). A log that moved or vanished since the last scan, or
// now holds another session, is looked up once more. read must not keep
// the index.
func (s *Store) use(ctx context.Context, id string, read func(ix *index, snap jsonlog.Snapshot) error) error {
	moved := false
	return whileChanged(ctx, func() (string, error) {
		for {
			path, err := s.pathOf(ctx, id)
			if err != nil {
				return "", err
			}
			err = s.usePath(ctx, id, path, read)
			gone := errors.Is(err, ErrNotFound) || errors.Is(err, errNotItsLog)
			switch {
			case gone && !moved:
				moved = true
				s.forgetID(id)
				continue
			case errors.Is(err, errNotItsLog):
				return path, s.notFound(id)
			}
			return path, err
		}
	})
}

// forgetID drops id from the index of the last scan, so the next look
// up scans again.
func (s *Store) forgetID(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID != nil { // the index is shared with readers: replace it
		idx := maps.Clone(s.byID)
		delete(idx, id)
		s.byID = idx
	}
}

// errNotItsLog: the log at a session's path now holds another session
// (it was replaced since it was listed); the session is looked up again.
var errNotItsLog = errors.New("the log holds another session")

// usePath is use for session id's log at path, once.
func (s *Store) usePath(ctx context.Context, id, path string, read func(ix *index, snap jsonlog.Snapshot) error) error {
	real, err := s.enginePath(path)
	if err != nil {
		return err
	}
	err = s.logs.Use(ctx, real, func(ix *index, snap jsonlog.Snapshot) error {
		cost := int64(64<<10) + 2*ix.longest
		if ix.zstd {
			cost += snap.Key.Size
		}
		s.mu.Lock()
		s.costs[path] = cost
		s.mu.Unlock()
		if ix.head.ID != nil && *ix.head.ID != id {
			return errNotItsLog
		}
		if err := ix.readErr(); err != nil {
			if real != path {
				return relabel(err, path)
			}
			return err
		}
		return read(ix, snap)
	})
	if err != nil {
		return s.engineErr(path, err)
	}
	return nil
}

// relabel names path in a log error found reading the file it links to.
func relabel(err error, path string) error {
	var le *LogError
	if errors.As(err, &le) {
		c := *le
		c.Path = path
		return &c
	}
	return err
}

// pathOf finds the log of session id.
func (s *Store) pathOf(ctx context.Context, id string) (string, error) {
	idx, err := s.pathsOf(ctx, []string{id})
	if err != nil {
		return "", err
	}
	e, ok := idx[id]
	if !ok {
		return "", s.notFound(id)
	}
	if e.err != nil {
		return "", e.err
	}
	return e.path, nil
}

// reader reads a log's messages back from their lines, checking that each
// is the message the index saw there.
type reader struct {
	probe *index // the log's path and header, to decode with
	snap  jsonlog.Snapshot
	lines *jsonlog.Lines
}

func newReader(ix *index, snap jsonlog.Snapshot) *reader {
	return &reader{probe: &index{path: ix.path, head: ix.head, zstd: ix.zstd}, snap: snap}
}

// message returns the message whose line of n bytes is at at, decoded
// again; it must be what the index saw there: a message, as long to a
// snapshot (tlen), a tool result or not (kind).
func (rd *reader) message(ctx context.Context, at int64, n int32, tlen int32, kind uint8) (sessionref.Event, error) {
	if rd.lines == nil {
		l, err := rd.snap.Open()
		if err != nil {
			return sessionref.Event{}, err
		}
		rd.lines = l
	}
	line, err := rd.lines.Line(ctx, at, int(n))
	if err != nil {
		return sessionref.Event{}, err
	}
	rec, _, err := decodeRecord(line)
	if err != nil || isPacked(rec.typ) {
		return sessionref.Event{}, errChanged
	}
	ev, err := rd.probe.decodeEvent(rec, 0, true)
	if err != nil || !ev.isMessage() {
		return sessionref.Event{}, errChanged
	}
	m, _ := ev.message()
	o, ok := sessionref.OutlineOf(&m)
	if ok != (tlen >= 0) || ok && int32(o.Bytes) != tlen || (m.Type == sessionref.EventToolResult) != (kind&kindToolResult != 0) {
		return sessionref.Event{}, errChanged
	}
	return m, nil
}

// close closes the file, if it was opened; a zstd frame's text read
// last is kept for the next message.
func (rd *reader) close() {
	if rd.lines != nil {
		rd.lines.Close()
	}
}

// captured is the surface's CapturedThroughSeq.
func (ix *index) captured(closers []event) *int64 {
	if last := ix.lastSeq(closers); last >= 0 {
		return &last
	}
	return nil
}

// errorOf is err as a read of the log at path reports it.
func errorOf(path string, err error) error {
	var le *LogError
	if errors.As(err, &le) {
		return err
	}
	switch {
	case errors.Is(err, context.Canceled):
		err = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		err = context.DeadlineExceeded
	case errors.Is(err, jsonlog.ErrChanged):
		err = errChanged
	}
	return ioErr(path, err)
}
