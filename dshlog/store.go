package dshlog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// File names of a session log.
const (
	RawName  = "session.jsonl"
	ZstdName = "session.jsonl.zstd"
)

// Defaults of the store's limits.
const (
	// DefaultCacheBytes is the default budget of the parsed-log cache.
	DefaultCacheBytes = 64 << 20
	// DefaultMaxLogBytes is the default cap on one log's decoded bytes.
	DefaultMaxLogBytes = 256 << 20
	// DefaultReadBytes is the default bound on the bytes of logs being
	// decoded at once.
	DefaultReadBytes = 256 << 20
)

// DefaultRoot returns $DSH_HOME/sessions, or ~/.dsh/sessions when
// DSH_HOME is unset or blank. A leading ~ in DSH_HOME is expanded and a
// relative value is taken from the current directory.
func DefaultRoot() (string, error) {
	home := strings.TrimSpace(os.Getenv("DSH_HOME"))
	if home == "" {
		u, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(u, ".dsh", "sessions"), nil
	}
	if home == "~" || strings.HasPrefix(home, "~/") || strings.HasPrefix(home, `~\`) {
		u, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		home = filepath.Join(u, home[1:])
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", err
	}
	return filepath.Join(abs, "sessions"), nil
}

// Info is what listing knows of one log, for diagnostics.
type Info struct {
	Path     string
	Header   sessionref.SessionHeader
	Parent   string   // parentSession, for subagent and fork children
	Warnings []string // forgiven header gaps
	Err      error    // a *LogError: why the log is not listed, if it is not
}

// Option configures a [Store].
type Option func(*Store)

// WithCacheBytes sets the byte budget of the parsed-log cache
// ([DefaultCacheBytes]); the least recently read logs are evicted past it.
// Titles and headers are cached apart, a few hundred bytes per log.
func WithCacheBytes(n int64) Option { return func(s *Store) { s.cacheBytes = max(n, 0) } }

// WithMaxLogBytes caps the decoded bytes of one log ([DefaultMaxLogBytes]):
// every zstd frame together, a torn last one included, counted while
// decoding; a raw log's size. A zstd log is also held to 1024 times its
// size on disk (at least 32 MiB), whichever is lower. Past it, reads
// fail with [ErrTooLarge].
func WithMaxLogBytes(n int64) Option { return func(s *Store) { s.maxLogBytes = max(n, 1) } }

// WithReadBytes bounds the bytes of logs decoded at once by all of the
// store's readers ([DefaultReadBytes]): a read counts its raw log's size
// (what it has left to decode, for an append), or for a zstd log its
// compressed size plus what its frames declare they decode to (the cap
// when a frame does not say). Reads past the bound wait their turn; a
// log bigger than the bound is decoded alone. Titles and headers are
// scanned outside it: they keep nothing of what they stream.
func WithReadBytes(n int64) Option { return func(s *Store) { s.readBytes = max(n, 1) } }

// Store is a strictly read-only [sessionref.SessionQuery] over DeepSeek
// Harness session logs: it never writes, truncates, locks or repairs a
// file. See the package doc for what it caches and what it refuses.
type Store struct {
	root   string // resolved once; nothing below it is followed
	single string // OpenFile's path

	cacheBytes, maxLogBytes, readBytes int64
	logs                               *jsonlog.Log[*index]      // each log's index, by path
	titles                             *jsonlog.Log[*titleIndex] // each log's title, by path

	mu      sync.Mutex
	headers map[string]cachedHeader // by path
	seqs    map[string]seqEntry     // CapturedSeqs' answer by path, for the version it was read at
	byID    map[string]idEntry      // session id → its log, from the last scan
	costs   map[string]int64        // by path: what the last read's decoding held at most (ReadCost)
	// unread holds, from the last scan, the errors of logs whose header
	// was not read (not a regular file, a link, unreadable, a bad header),
	// by the name of their session directory ("" for OpenFile's log): an
	// id with no listed log whose directory name is the id's gets that
	// error rather than a bare not-found.
	unread map[string]error
}

type idEntry struct {
	path string
	err  error // the id cannot be read (its logs in two places)
}

type cachedHeader struct {
	key  jsonlog.Key
	info Info
}

func newStore(opts []Option) *Store {
	s := &Store{cacheBytes: DefaultCacheBytes, maxLogBytes: DefaultMaxLogBytes, readBytes: DefaultReadBytes,
		headers: map[string]cachedHeader{}, seqs: map[string]seqEntry{}, costs: map[string]int64{}}
	for _, o := range opts {
		o(s)
	}
	s.logs = newLog(s, s.cacheBytes, newIndex)
	s.titles = newLog(s, min(s.cacheBytes, 4<<20), newTitleIndex)
	return s
}

// Open returns a store over the sessions root dir:
// <root>/<project>/<session>/session.jsonl[.zstd]. The root itself may be
// a symbolic link; links below it are not followed.
func Open(root string, opts ...Option) (*Store, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, ioErr(root, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, ioErr(root, err)
	}
	if !st.IsDir() {
		return nil, &LogError{Path: root, Err: ErrNotRegular, Detail: "the sessions root is not a directory"}
	}
	s := newStore(opts)
	s.root = real
	return s, nil
}

// OpenFile returns a store over one log file, which may be a symbolic
// link to one; anything but a regular file (a FIFO, a directory, a
// device) is refused with ErrNotRegular.
func OpenFile(path string, opts ...Option) (*Store, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, ioErr(path, err)
	}
	if err := notRegular(path, fi); err != nil {
		return nil, err
	}
	s := newStore(opts)
	s.single = path
	return s, nil
}

// where names the store's root or file in errors.
func (s *Store) where() string { return s.root + s.single }

// notFound is the error for an id with no listed log: the error of the
// log in the id's session directory when there is one that could not be
// read (or of OpenFile's log), else ErrNotFound.
func (s *Store) notFound(id string) error {
	key := ""
	if s.single == "" {
		key = sessionDir(id)
	}
	s.mu.Lock()
	err := s.unread[key]
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return &LogError{Path: s.where(), Err: ErrNotFound, Detail: fmt.Sprintf("no log for session %q", id)}
}

// notRegular is the error for a path whose (followed) mode is not a
// regular file's, nil for a regular file.
func notRegular(path string, fi os.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &LogError{Path: path, Err: ErrNotRegular, Detail: "it is " + jsonlog.Kind(fi.Mode())}
}

// notFollowed is the error for a symbolic link below the root.
func notFollowed(path string) *LogError {
	return &LogError{Path: path, Err: ErrNotRegular, Detail: "a symbolic link below the sessions root is not followed"}
}

// newestFirst orders headers as listing returns them: createdAt
// descending, then id ascending.
func newestFirst(a, b sessionref.SessionHeader) int {
	return cmp.Or(cmp.Compare(b.CreatedAt, a.CreatedAt), cmp.Compare(a.ID, b.ID))
}

// Sessions lists every log with its header, warnings and errors (logs
// that are not listed say why in Info.Err).
func (s *Store) Sessions(ctx context.Context) ([]Info, error) {
	infos, err := s.scan(ctx)
	return slices.Clone(infos), err
}

// ListSessions returns the headers of every readable log, newest first,
// ties by id. Only each file's first line (or first zstd frame) is read.
func (s *Store) ListSessions(ctx context.Context) ([]sessionref.SessionHeader, error) {
	infos, err := s.scan(ctx)
	if err != nil {
		return nil, err
	}
	var out []sessionref.SessionHeader
	for _, in := range infos {
		if in.Err == nil {
			out = append(out, in.Header)
		}
	}
	slices.SortFunc(out, newestFirst)
	return out, nil
}

// ListSessionsWithTitles is [Store.ListSessions] with every session's
// latest title beside it ([sessionref.TitleLister]): the picker's
// filtered query in one call. Titles are found without decoding other
// events and are cached per file, extended as a log grows.
func (s *Store) ListSessionsWithTitles(ctx context.Context) ([]sessionref.SessionHeader, []sessionref.TitleResult, error) {
	infos, err := s.scan(ctx)
	if err != nil {
		return nil, nil, err
	}
	var listed []Info
	for _, in := range infos {
		if in.Err == nil {
			listed = append(listed, in)
		}
	}
	slices.SortFunc(listed, func(a, b Info) int { return newestFirst(a.Header, b.Header) })
	headers := make([]sessionref.SessionHeader, len(listed))
	paths, ids := make([]string, len(listed)), make([]string, len(listed))
	for i, in := range listed {
		headers[i], paths[i], ids[i] = in.Header, in.Path, in.Header.ID
	}
	titles, err := s.titlesOf(ctx, ids, paths)
	if err != nil {
		return nil, nil, err
	}
	return headers, titles, nil
}

// titlesOf finds the titles of sessions ids, whose logs are at paths
// ("" for none), a few logs at a time (one per processor): each scan is
// independent.
func (s *Store) titlesOf(ctx context.Context, ids, paths []string) ([]sessionref.TitleResult, error) {
	out := make([]sessionref.TitleResult, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(paths), 1)) {
		wg.Go(func() {
			for i := range next {
				if paths[i] != "" {
					out[i].Title, out[i].Err = s.titleOf(ctx, ids[i], paths[i])
				}
			}
		})
	}
	for i := range paths {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, ioErr(s.where(), err)
	}
	return out, nil
}

// ReadTitles returns each session's last session/title event. Only the
// lines that hold a title record are decoded; the event cache is not
// touched.
func (s *Store) ReadTitles(ctx context.Context, ids []string) ([]sessionref.TitleResult, error) {
	idx, err := s.pathsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(ids))
	for i, id := range ids {
		if e, ok := idx[id]; ok && e.err == nil {
			paths[i] = e.path
		}
	}
	out, err := s.titlesOf(ctx, ids, paths)
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		switch e, ok := idx[id]; {
		case !ok:
			out[i].Err = s.notFound(id)
		case e.err != nil:
			out[i].Err = e.err
		}
	}
	return out, nil
}

// ReadCost returns how many bytes the last read of a session's log held
// at most while it decoded, beside what it keeps: about three times the
// log's longest record (its line buffer, doubled as it grew, or a zstd
// frame's text), 0 before a read. An indexer reading several sessions
// at once counts each as at least that much ([discover.ReadCoster]), so
// logs cheap on the surface but dear to decode are read one at a time.
func (s *Store) ReadCost(id string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return 0
	}
	return s.costs[e.path]
}

// ReadSurface folds a session's log into its current surface. A log whose
// last turn is open gets the reference's crash-repair closers in memory,
// marked Synthetic; capturedThroughSeq counts them. Each message is read
// back from its line; a log that changes meanwhile is read again.
func (s *Store) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	var out sessionref.Surface
	err := s.read(ctx, id, false, func(v *view) error {
		out = sessionref.Surface{Session: headerOf(v.head), CapturedThroughSeq: v.captured, Events: make([]sessionref.Event, v.len())}
		return v.all(ctx, out.Events)
	})
	if err != nil {
		return sessionref.Surface{}, err
	}
	return out, nil
}

// WalkSurface passes the events ReadSurface would return to fn, one at a
// time in surface order, until fn returns false, and returns the
// surface's CapturedThroughSeq: an indexer that keeps a bounded part of
// each session holds no surface ([discover.SurfaceWalker]), only the
// log's index and 4 bytes a message. fn must neither keep nor change an
// event after it returns. A log that changes during the walk is an error
// (fn has seen part of it).
func (s *Store) WalkSurface(ctx context.Context, id string, fn func(e *sessionref.Event) bool) (*int64, error) {
	v, err := s.viewOf(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if err := v.each(ctx, func(m sessionref.Event) bool { return fn(&m) }); err != nil {
		return nil, errorOf(v.rd.probe.path, err)
	}
	return v.captured, nil
}

// ReadOutline implements [sessionref.OutlineReader]: the surface
// ReadSurface would return, as each projected message's role and size,
// with no text; Text reads one message's text back from its line. Prepare
// then holds, of a session of M messages, its index (see the package doc)
// and 20 bytes a projected message, plus the text the snapshot keeps. A
// log that changed since the outline was read makes Text fail (Prepare
// then fails with READ_FAILED; a new Prepare reads the new log).
func (s *Store) ReadOutline(ctx context.Context, id string) (sessionref.Outline, error) {
	v, err := s.viewOf(ctx, id, true)
	if err != nil {
		return sessionref.Outline{}, err
	}
	out := sessionref.Outline{Session: headerOf(v.head), CapturedThroughSeq: v.captured,
		Messages: make([]sessionref.OutlineMessage, len(v.ranks))}
	for i, r := range v.ranks {
		k := v.kinds[r]
		out.Messages[i] = sessionref.OutlineMessage{Assistant: k&kindAssistant != 0, Checkpoint: k&kindCheckpoint != 0, Bytes: int(v.tlen[r])}
	}
	out.Text = func(ctx context.Context, i int) (string, error) {
		if i < 0 || i >= len(v.ranks) {
			return "", fmt.Errorf("dshlog: outline message %d of %d", i, len(v.ranks))
		}
		m, err := v.message(ctx, i)
		v.rd.close() // the file is not held between calls; a frame decoded to its end is
		if err != nil {
			return "", errorOf(v.rd.probe.path, err)
		}
		return joined(&m), nil
	}
	return out, nil
}

// joined is the newline-joined text of a decoded message's text blocks,
// as the projection joins them.
func joined(m *sessionref.Event) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == sessionref.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// CapturedSeqs returns, for each id, the CapturedThroughSeq ReadSurface
// would report now, without folding or copying a surface. Each answer is
// kept by path for the version of the file it was read at (one small
// entry a log, dropped with the log), so asking again costs a few stats a log
// while no log changes, even for logs the parsed-log cache has evicted;
// a changed log is decoded (which fills the cache as a read does). An id
// with no log, an empty log or one that cannot be read gets nil
// (ReadSurface reports why); a fold error is left to ReadSurface too.
// Indexers use it to re-read only the sessions that changed.
func (s *Store) CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error) {
	out := make([]*int64, len(ids))
	err := s.eachStated(ctx, ids, func(i int, id, path string, key jsonlog.Key) error {
		s.mu.Lock()
		m, known := s.seqs[path]
		s.mu.Unlock()
		if known && m.key == key {
			out[i] = m.seq
			return nil
		}
		last, err := s.lastSeq(ctx, id)
		if ctx.Err() != nil {
			return ioErr(s.where(), ctx.Err())
		}
		if err != nil {
			return nil
		}
		if last >= 0 {
			out[i] = &last
		}
		// Kept under the key stat-ed before the read: a file that changed
		// meanwhile is read again next time.
		s.mu.Lock()
		s.seqs[path] = seqEntry{key: key, seq: out[i]}
		s.mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// lastSeq is the seq of the last event of session id's log, closers
// included.
func (s *Store) lastSeq(ctx context.Context, id string) (int64, error) {
	last := int64(-1)
	err := s.use(ctx, id, func(ix *index, _ jsonlog.Snapshot) error {
		last = ix.lastSeq(ix.closers())
		return nil
	})
	return last, err
}

// SessionVersions returns, for each id, a token of its log file's
// identity and version (path, device, inode, size, modification and
// change times, mode; where there is no inode, size and times): it
// changes whenever the log may have changed, a log replaced by another
// with the same seqs or a message rewritten in msgPlace included. An id with
// no log it can stat gets "". It costs a few stats a log (the log's, and
// its folders', which must not have become links). Indexers compare it
// with the token they indexed ([discover.VersionLister]).
func (s *Store) SessionVersions(ctx context.Context, ids []string) ([]string, error) {
	out := make([]string, len(ids))
	err := s.eachStated(ctx, ids, func(i int, _, path string, key jsonlog.Key) error {
		out[i] = path + "|" + key.String()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachStated calls f for each of ids whose log is known and can be
// stat-ed, with its index in ids, its path and its stat key, until f
// returns an error or ctx ends. An id with no log, or whose log cannot be
// stat-ed, is skipped: its answer stays the zero one.
func (s *Store) eachStated(ctx context.Context, ids []string, f func(i int, id, path string, key jsonlog.Key) error) error {
	idx, err := s.pathsOf(ctx, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return ioErr(s.where(), err)
		}
		e, ok := idx[id]
		if !ok || e.err != nil {
			continue
		}
		key, err := s.statKey(e.path)
		if err != nil {
			continue
		}
		if err := f(i, id, e.path, key); err != nil {
			return err
		}
	}
	return nil
}

// seqEntry is CapturedSeqs' answer for one version of a log.
type seqEntry struct {
	key jsonlog.Key
	seq *int64
}

// Open reports whether the session's last turn is still open on disk,
// which usually means it is live elsewhere.
func (s *Store) Open(ctx context.Context, id string) (bool, error) {
	open := false
	err := s.use(ctx, id, func(ix *index, _ jsonlog.Snapshot) error {
		open = len(ix.closers()) > 0
		return nil
	})
	return open, err
}

func headerOf(h header) sessionref.SessionHeader {
	out := sessionref.SessionHeader{CreatedAt: *h.CreatedAt, Cwd: h.Cwd}
	if h.ID != nil {
		out.ID = *h.ID
	}
	return out
}

// scan lists the logs and rebuilds the id → log index. Like the
// reference, it does not list a log whose header is bad, whose id and
// cwd do not map back to its directory, or whose id has logs under two
// project directories. Both encodings in one session directory: the raw
// log is used.
func (s *Store) scan(ctx context.Context) ([]Info, error) {
	files, err := s.files()
	if err != nil {
		return nil, err
	}
	infos := make([]Info, 0, len(files))
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, ioErr(s.where(), err)
		}
		if f.err != nil {
			infos = append(infos, Info{Path: f.path, Err: f.err})
			continue
		}
		infos = append(infos, s.header(ctx, f.path, f.fi))
	}
	if err := ctx.Err(); err != nil {
		return nil, ioErr(s.where(), err) // a header read was stopped: the listing is not whole
	}
	byID := make(map[string]idEntry, len(infos))
	unread := map[string]error{}
	first := make(map[string]int, len(infos)) // id → index in infos of its log
	for i := range infos {
		in := &infos[i]
		if in.Err != nil {
			key := ""
			if s.single == "" {
				key = filepath.Base(filepath.Dir(in.Path))
				if rel, err := filepath.Rel(s.root, in.Path); err == nil && strings.Count(filepath.ToSlash(rel), "/") == 1 {
					key = filepath.Base(in.Path) // a linked session directory
				}
			}
			if _, ok := unread[key]; !ok {
				unread[key] = in.Err
			}
			continue
		}
		if s.root != "" {
			rel, _ := filepath.Rel(s.root, in.Path)
			parts := strings.Split(filepath.ToSlash(rel), "/")
			wantP, wantS := projectDir(in.Header.Cwd), sessionDir(in.Header.ID)
			if len(parts) != 3 || parts[0] != wantP || parts[1] != wantS {
				in.Err = logErr(in.Path, 1, ErrHeader, "session %q with its cwd belongs in %s, not here", in.Header.ID, filepath.Join(wantP, wantS))
				continue
			}
		}
		j, dup := first[in.Header.ID]
		if !dup {
			first[in.Header.ID] = i
			byID[in.Header.ID] = idEntry{path: in.Path}
			continue
		}
		other := &infos[j]
		if filepath.Dir(other.Path) == filepath.Dir(in.Path) {
			in.Err = logErr(in.Path, 0, ErrDuplicate, "the session directory also holds %s, which is read instead", filepath.Base(other.Path))
			continue
		}
		err := logErr(in.Path, 0, ErrDuplicate, "session %q also has a log at %s; neither is read", in.Header.ID, other.Path)
		in.Err = err
		if byID[in.Header.ID].err == nil {
			other.Err = logErr(other.Path, 0, ErrDuplicate, "session %q also has a log at %s; neither is read", in.Header.ID, in.Path)
		}
		byID[in.Header.ID] = idEntry{err: err}
	}
	s.mu.Lock()
	s.byID, s.unread = byID, unread
	s.forgetGone()
	s.mu.Unlock()
	return infos, nil
}

// forgetGone forgets the seqs and read costs of logs that are no longer
// listed (files forgets their headers and indexes). The caller holds s.mu.
func (s *Store) forgetGone() {
	for path := range s.seqs {
		if _, ok := s.headers[path]; !ok {
			delete(s.seqs, path)
		}
	}
	for path := range s.costs {
		if _, ok := s.headers[path]; !ok {
			delete(s.costs, path)
		}
	}
}

// logFile is one discovered log and its lstat, or why it cannot be used.
type logFile struct {
	path string
	fi   os.FileInfo
	err  error
}

// files lists the log files, <root>/*/*/session.jsonl and .zstd, with one
// lstat each; other files in a session dir (transient .tmp files) are not
// looked at. Symbolic links below the root are not followed: a linked
// project or session directory or log is reported, not read.
func (s *Store) files() ([]logFile, error) {
	if s.single != "" {
		fi, err := os.Stat(s.single)
		if err != nil {
			return nil, ioErr(s.single, err)
		}
		if err := notRegular(s.single, fi); err != nil {
			return []logFile{{path: s.single, err: err}}, nil
		}
		return []logFile{{path: s.single, fi: fi}}, nil
	}
	projects, err := s.readDir(s.root)
	if err != nil {
		return nil, err
	}
	var out []logFile
	seen := map[string]bool{}
	for _, p := range projects {
		pdir := filepath.Join(s.root, p.Name())
		if p.Type()&fs.ModeSymlink != 0 {
			out = append(out, logFile{path: pdir, err: notFollowed(pdir)})
			continue
		}
		if !p.IsDir() {
			continue
		}
		sessions, err := s.readDir(pdir)
		if err != nil {
			out = append(out, logFile{path: pdir, err: err})
			continue
		}
		for _, sd := range sessions {
			sdir := filepath.Join(pdir, sd.Name())
			if sd.Type()&fs.ModeSymlink != 0 {
				out = append(out, logFile{path: sdir, err: notFollowed(sdir)})
				continue
			}
			if !sd.IsDir() {
				continue
			}
			for _, name := range []string{RawName, ZstdName} {
				path := filepath.Join(sdir, name)
				fi, err := os.Lstat(path)
				switch {
				case errors.Is(err, fs.ErrNotExist):
					continue
				case err != nil:
					out = append(out, logFile{path: path, err: ioErr(path, err)})
				case fi.Mode()&fs.ModeSymlink != 0:
					out = append(out, logFile{path: path, err: notFollowed(path)})
				case !fi.Mode().IsRegular():
					out = append(out, logFile{path: path, err: notRegular(path, fi)})
				default:
					out = append(out, logFile{path: path, fi: fi})
				}
				seen[path] = true
			}
		}
	}
	s.mu.Lock()
	for path := range s.headers { // forget the headers and indexes of logs that are gone
		if !seen[path] {
			delete(s.headers, path)
			s.logs.Drop(path)
			s.titles.Drop(path)
		}
	}
	s.mu.Unlock()
	return out, nil
}

// readDir reads the directory dir (os.ReadDir opens it as a directory:
// a FIFO put in its place is refused, not waited on); anything but a
// directory there is ErrNotRegular, as at Open.
func (s *Store) readDir(dir string) ([]fs.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, syscall.ENOTDIR) {
		return nil, &LogError{Path: dir, Err: ErrNotRegular, Detail: "not a directory"}
	}
	if err != nil {
		return nil, ioErr(dir, err)
	}
	return ents, nil
}

// pathsOf finds the logs of ids from the last scan's index, scanning
// again only when an id is not in it (a session created since), so a
// read does not stat every log of the root.
func (s *Store) pathsOf(ctx context.Context, ids []string) (map[string]idEntry, error) {
	s.mu.Lock()
	idx := s.byID
	s.mu.Unlock()
	for _, id := range ids {
		if _, ok := idx[id]; !ok || idx == nil {
			if _, err := s.scan(ctx); err != nil {
				return nil, err
			}
			s.mu.Lock()
			idx = s.byID
			s.mu.Unlock()
			break
		}
	}
	return idx, nil
}
