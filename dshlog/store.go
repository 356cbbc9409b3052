package dshlog

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// File names of a session log.
const (
	RawName  = "session.jsonl"
	ZstdName = "session.jsonl.zstd"
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
	Err      error    // why the header could not be read, if it could not
}

// Store is a strictly read-only [sessionref.SessionQuery] over DeepSeek
// Harness session logs: it never writes, truncates, locks or repairs a
// file. Parsed logs are cached by (device, inode, size, mtime); a log that
// grew is decoded from where the last read stopped.
type Store struct {
	root   string
	single string // OpenFile's path

	mu      sync.Mutex
	headers map[string]cachedHeader // by path
	logs    map[string]*cachedLog   // by path
	byID    map[string]string       // session id → log path, from the last scan
}

type fileKey struct {
	dev, ino uint64
	size     int64
	mtime    int64
}

type cachedHeader struct {
	key  fileKey
	info Info
}

type cachedLog struct {
	key fileKey
	p   *parsed
}

// Open returns a store over the sessions root dir:
// <root>/<project>/<session>/session.jsonl[.zstd].
func Open(root string) (*Store, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("dshlog: sessions root: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("dshlog: sessions root %s is not a directory", root)
	}
	return &Store{root: root, headers: map[string]cachedHeader{}, logs: map[string]*cachedLog{}}, nil
}

// OpenFile returns a store over one log file.
func OpenFile(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("dshlog: %w", err)
	}
	return &Store{single: path, headers: map[string]cachedHeader{}, logs: map[string]*cachedLog{}}, nil
}

// logFile is one discovered log and its stat.
type logFile struct {
	path string
	fi   os.FileInfo
}

// files lists the log files, <root>/*/*/session.jsonl and .zstd, with one
// stat each; other files in a session dir (transient .tmp files) are not
// looked at.
func (s *Store) files() ([]logFile, error) {
	if s.single != "" {
		fi, err := os.Stat(s.single)
		if err != nil {
			return nil, err
		}
		return []logFile{{s.single, fi}}, nil
	}
	projects, err := os.ReadDir(s.root)
	if err != nil {
		return nil, err
	}
	var out []logFile
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		pdir := filepath.Join(s.root, p.Name())
		sessions, err := os.ReadDir(pdir)
		if err != nil {
			continue
		}
		for _, sd := range sessions {
			if !sd.IsDir() {
				continue
			}
			for _, name := range []string{RawName, ZstdName} {
				path := filepath.Join(pdir, sd.Name(), name)
				if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
					out = append(out, logFile{path, fi})
				}
			}
		}
	}
	return out, nil
}

// Sessions lists every log with its header, warnings and header errors.
func (s *Store) Sessions(ctx context.Context) ([]Info, error) {
	files, err := s.files()
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(files))
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, s.header(f.path, f.fi))
	}
	return out, nil
}

// ListSessions returns the headers of every readable log, newest first,
// ties by id. Only each file's first line (or first zstd frame) is read.
func (s *Store) ListSessions(ctx context.Context) ([]sessionref.SessionHeader, error) {
	infos, err := s.scan(ctx)
	if err != nil {
		return nil, err
	}
	var out []sessionref.SessionHeader
	s.mu.Lock()
	for _, in := range infos {
		if in.Err == nil && s.byID[in.Header.ID] == in.Path {
			out = append(out, in.Header)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b sessionref.SessionHeader) int {
		return cmp.Or(cmp.Compare(b.CreatedAt, a.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// scan lists the logs and rebuilds the id → path index. The reference
// skips a log whose header is bad; when an id has two logs, the first
// path (sorted) wins.
func (s *Store) scan(ctx context.Context) ([]Info, error) {
	infos, err := s.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]string, len(infos))
	for _, in := range infos {
		if _, dup := byID[in.Header.ID]; in.Err == nil && !dup {
			byID[in.Header.ID] = in.Path
		}
	}
	s.mu.Lock()
	s.byID = byID
	s.mu.Unlock()
	return infos, nil
}

// pathsOf finds the logs of ids from the last scan's index, scanning
// again only when an id is not in it (a session created since), so a
// read does not stat every log of the root.
func (s *Store) pathsOf(ctx context.Context, ids []string) (map[string]string, error) {
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

// loadID loads the log of one session. A log that moved or vanished
// since the last scan is looked up once more.
func (s *Store) loadID(ctx context.Context, id string) (*parsed, error) {
	for attempt := 0; ; attempt++ {
		idx, err := s.pathsOf(ctx, []string{id})
		if err != nil {
			return nil, err
		}
		path, ok := idx[id]
		if !ok {
			return nil, &LogError{Path: s.root + s.single, Err: ErrNotFound, Detail: fmt.Sprintf("no log for session %q", id)}
		}
		p, err := s.load(path)
		if err != nil && attempt == 0 && errors.Is(err, ErrNotFound) {
			s.mu.Lock()
			delete(s.byID, id)
			s.mu.Unlock()
			continue
		}
		return p, err
	}
}

// ReadTitles returns each session's last session/title event.
func (s *Store) ReadTitles(ctx context.Context, ids []string) ([]sessionref.TitleResult, error) {
	idx, err := s.pathsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]sessionref.TitleResult, len(ids))
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		path, ok := idx[id]
		if !ok {
			out[i].Err = &LogError{Path: s.root + s.single, Err: ErrNotFound, Detail: fmt.Sprintf("no log for session %q", id)}
			continue
		}
		p, err := s.load(path)
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i].Title = titleOf(p)
	}
	return out, nil
}

// titleOf is the log's last session/title event, the torn tail included.
func titleOf(p *parsed) *sessionref.Title {
	for _, evs := range [][]event{p.tail, p.events} {
		for i := len(evs) - 1; i >= 0; i-- {
			if e := evs[i]; e.title != nil {
				return &sessionref.Title{Text: *e.title, EventSeq: e.seq, UpdatedAt: e.time}
			}
		}
	}
	return nil
}

// view is the committed events and the torn tail as one list, in a new
// array: the cached slice is shared by concurrent readers.
func (p *parsed) view() []event {
	return append(slices.Clip(p.events), p.tail...)
}

// ReadSurface folds a session's log into its current surface. A log whose
// last turn is open gets the reference's crash-repair closers in memory,
// marked Synthetic; capturedThroughSeq counts them.
func (s *Store) ReadSurface(ctx context.Context, id string) (sessionref.Surface, error) {
	p, err := s.loadID(ctx, id)
	if err != nil {
		return sessionref.Surface{}, err
	}
	if p.err != nil {
		return sessionref.Surface{}, p.err
	}
	evs := p.view()
	evs = append(evs, closers(evs)...)
	nodes, err := fold(p.path, evs)
	if err != nil {
		return sessionref.Surface{}, err
	}
	out := sessionref.Surface{Session: headerOf(p.head), Events: make([]sessionref.Event, len(nodes))}
	if len(evs) > 0 {
		last := evs[len(evs)-1].seq
		for i := len(evs) - 1; i >= 0 && evs[i].typ == ""; i-- {
			last = evs[i].seq - 1 // ignorable unknown events are not part of the view
		}
		if last >= 0 {
			out.CapturedThroughSeq = &last
		}
	}
	for i, seq := range nodes {
		out.Events[i] = evs[seq].msg.Clone()
	}
	return out, nil
}

// Open reports whether the session's last turn is still open on disk,
// which usually means it is live elsewhere.
func (s *Store) Open(ctx context.Context, id string) (bool, error) {
	p, err := s.loadID(ctx, id)
	if err != nil {
		return false, err
	}
	return len(closers(p.view())) > 0, nil
}

func headerOf(h header) sessionref.SessionHeader {
	out := sessionref.SessionHeader{CreatedAt: *h.CreatedAt, Cwd: h.Cwd}
	if h.ID != nil {
		out.ID = *h.ID
	}
	return out
}

func statKey(fi os.FileInfo) fileKey {
	k := fileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.dev, k.ino = uint64(st.Dev), uint64(st.Ino)
	}
	return k
}

// header reads (or recalls) a log's header.
func (s *Store) header(path string, fi os.FileInfo) Info {
	key := statKey(fi)
	s.mu.Lock()
	c, ok := s.headers[path]
	s.mu.Unlock()
	if ok && c.key == key {
		return c.info
	}
	info := Info{Path: path}
	line, err := firstLine(path)
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
	s.mu.Lock()
	s.headers[path] = cachedHeader{key, info}
	s.mu.Unlock()
	return info
}

// firstLine reads the header line: the first line of a raw log, or the
// first frame of a zstd one, without reading the rest.
func firstLine(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if strings.HasSuffix(path, ".zstd") {
		buf := make([]byte, 64<<10)
		n, err := io.ReadFull(f, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, err
		}
		fl, complete, ferr := frameLen(buf[:n])
		if ferr != nil || !complete {
			return nil, logErr(path, 1, ErrHeader, "the first zstd frame is missing or unreadable")
		}
		out, err := decoder.DecodeAll(buf[:fl], nil)
		if err != nil {
			return nil, logErr(path, 1, ErrHeader, "first frame: %v", err)
		}
		line, _, _ := bytes.Cut(out, []byte{'\n'})
		return line, nil
	}
	line, err := bufio.NewReaderSize(f, 1024).ReadBytes('\n') // grows for a long header
	if err != nil {
		return nil, logErr(path, 1, ErrHeader, "no complete header line")
	}
	return line[:len(line)-1], nil
}

// load returns the parsed log, re-reading only what changed. A file that
// changes while it is read (stat, read, stat disagree) is read again.
func (s *Store) load(path string) (*parsed, error) {
	for attempt := 0; ; attempt++ {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, &LogError{Path: path, Err: ErrNotFound, Detail: err.Error()}
		}
		key := statKey(fi)
		s.mu.Lock()
		c := s.logs[path]
		s.mu.Unlock()
		if c != nil && c.key == key {
			return c.p, nil
		}
		grew := c != nil && c.key.dev == key.dev && c.key.ino == key.ino && key.size > c.key.size && c.p.err == nil && !c.p.stopped
		base := 0
		if grew {
			base = c.p.committed // only the appended bytes are read
		}
		data, err := readFrom(path, int64(base), key.size)
		if err != nil {
			return nil, &LogError{Path: path, Err: ErrNotFound, Detail: err.Error()}
		}
		if fi2, err := os.Stat(path); (err != nil || statKey(fi2) != key) && attempt < 5 {
			time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
			continue // it changed while being read; a later read sees it whole
		}
		var p *parsed
		if grew {
			cp := *c.p
			cp.events = slices.Clip(cp.events)
			cp.feed(data, base)
			p = &cp
		} else {
			isZstd := strings.HasSuffix(path, ".zstd") || bytes.HasPrefix(data, zstdMagic)
			p = &parsed{path: path, zstd: isZstd}
			p.feed(data, 0)
		}
		s.mu.Lock()
		s.logs[path] = &cachedLog{key: key, p: p}
		s.mu.Unlock()
		return p, nil
	}
}

// readFrom reads the file's bytes [from, size).
func readFrom(path string, from, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, max(size-from, 0))
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}
