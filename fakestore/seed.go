package fakestore

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// SeedOptions describes a generated corpus.
type SeedOptions struct {
	// Count is the number of sessions.
	Count int
	// Seed makes the corpus reproducible: the same options give the same
	// sessions, ids, titles and times.
	Seed uint64
	// Now is the time the newest session is near; the zero value is a
	// fixed date, so corpora do not depend on the clock.
	Now time.Time
	// Home is the home directory working directories live under
	// (default /home/dev).
	Home string
}

// DefaultNow is the reference time of a corpus with no Now.
var DefaultNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Cwds returns the working directories a corpus uses, for a given home.
func Cwds(home string) []string {
	if home == "" {
		home = "/home/dev"
	}
	rel := []string{
		"src/mentions", "src/api-gateway", "src/payments-service", "work/infra/terraform", "src/网站-前端",
		"src/ml/notebooks", "src/dotfiles", "work/clients/acme corp/portal", "src/raytracer-rs", "src/café-menu",
		"work/data/pipeline", "src/blog",
	}
	out := make([]string, 0, len(rel)+2)
	for _, r := range rel {
		out = append(out, home+"/"+r)
	}
	return append(out, "/srv/deploy/production", "/tmp/scratch")
}

// Seed fills the store with a generated corpus of realistic sessions
// across many working directories: multi-turn conversations in several
// languages (CJK, emoji, combining marks), tool results, plugin messages,
// compactions, very long messages, and sessions without a cwd or a title.
// It returns the ids in creation order, oldest first.
func (s *Store) Seed(o SeedOptions) []string {
	if o.Now.IsZero() {
		o.Now = DefaultNow
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6d656e74696f6e73))
	cwds := Cwds(o.Home)
	ids := make([]string, o.Count)
	// Spread creation over ~90 days, newest near Now.
	span := int64(90 * 24 * time.Hour / time.Millisecond)
	step := span / int64(max(o.Count, 1))
	start := o.Now.UnixMilli() - span
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range o.Count {
		id := fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xfff,
			0x8000|rng.Uint32()&0x3fff, rng.Uint64()&0xffffffffffff)
		ids[i] = id
		created := start + int64(i)*step + rng.Int64N(max(step, 1))
		var cwd *string
		if rng.IntN(12) != 0 {
			cwd = s.intern(&cwds[zipf(rng, len(cwds))])
		}
		ss := &session{header: sessionref.SessionHeader{ID: id, Cwd: cwd, CreatedAt: created}}
		s.sessions[id] = ss
		generateConversation(ss, rng, created)
	}
	s.sorted = nil
	return ids
}

// zipf picks an index with a skew towards the first ones, so a few
// working directories hold most sessions, as in real use.
func zipf(rng *rand.Rand, n int) int {
	for i := 0; i < n-1; i++ {
		if rng.IntN(3) == 0 {
			return i
		}
	}
	return n - 1
}

func generateConversation(ss *session, rng *rand.Rand, created int64) {
	at := created
	tick := func() time.Time { at += 1000 + rng.Int64N(90_000); return time.UnixMilli(at) }
	topic := topics[rng.IntN(len(topics))]
	lang := langs[rng.IntN(len(langs))]
	appendMsg := func(typ string, src sessionref.Source, block sessionref.Block) {
		ev := &sessionref.Event{Type: typ, Source: src, Content: []sessionref.Block{block}}
		seq := ss.pushOwned(typ, tick(), ev)
		ss.nodes = append(ss.nodes, seq)
	}
	appendMsg(sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourcePlugin, Plugin: "@deepseek-ai/dsh-system-prompt"},
		sessionref.TextBlock("You are a coding agent working in this repository. Follow the project's conventions."))
	turns := 1 + rng.IntN(5)
	for t := range turns {
		ss.push("turn/start", tick(), nil)
		appendMsg(sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourceUser}, sessionref.TextBlock(lang.ask(rng, topic, t)))
		if rng.IntN(3) == 0 {
			appendMsg(sessionref.EventToolResult, sessionref.Source{Kind: sessionref.SourceTool},
				sessionref.Block{Type: "tool-result", Text: toolOutputs[rng.IntN(len(toolOutputs))]})
		}
		if rng.IntN(9) == 0 {
			appendMsg(sessionref.EventUserMessage, sessionref.Source{Kind: sessionref.SourcePlugin, Plugin: "hooks-claude-code"},
				sessionref.TextBlock("Hook note: formatting was checked after the last edit."))
		}
		answer := lang.answer(rng, topic)
		if rng.IntN(40) == 0 {
			answer += "\n\n" + longLog
		}
		appendMsg(sessionref.EventAssistantMessage, sessionref.Source{Kind: sessionref.SourceModel}, sessionref.TextBlock(answer))
		ss.push("turn/end", tick(), nil)
		if t == 0 && rng.IntN(8) != 0 {
			now := tick()
			seq := ss.push("session/title", now, nil)
			ss.title = &sessionref.Title{Text: lang.title(rng, topic), EventSeq: seq, UpdatedAt: now.UnixMilli()}
		}
	}
	if turns > 2 && rng.IntN(6) == 0 && len(ss.nodes) > 3 {
		ss.compact(0, len(ss.nodes)-3, lang.summary(topic), tick()) // keep the last exchange
	}
}

// topic is what a session is about, in words every language template uses.
type topic struct{ thing, file string }

var topics = []topic{
	{"the session parser", "parser.go"}, {"flaky CI on main", ".ci/run"}, {"the payment retry logic", "retry.go"},
	{"the Redis cache", "cache.go"}, {"dark mode colours", "theme.css"}, {"the login redirect", "auth.ts"},
	{"memory use of the indexer", "indexer.rs"}, {"the release notes", "CHANGELOG.md"}, {"terraform state drift", "main.tf"},
	{"the emoji picker 🎉", "picker.go"}, {"unicode width of 表格 cells", "width.go"}, {"the café menu (cafe\u0301)", "menu.json"},
}

type language struct {
	asks    []string
	answers []string
	titles  []string
	sum     string
}

var langs = []language{
	{
		asks:    []string{"Can you look at %s? It breaks when the input is empty.", "Please refactor %s so it is easier to test.", "Why is %s slow on large inputs?", "Add a test for %s, then fix what it finds."},
		answers: []string{"I read %s and found the problem: an off-by-one in the loop bound. I fixed it and added a regression test.", "The slow path is in %s: it re-reads the whole file on every call. Caching the parsed result makes it 40× faster.", "Done. %s now has table-driven tests; two edge cases were wrong and are fixed."},
		titles:  []string{"Fix %s", "Refactor %s", "Speed up %s", "Tests for %s"},
		sum:     "We worked on %s: found the bug, fixed it, and added tests.",
	},
	{
		asks:    []string{"请帮我看看 %s，空输入时会崩溃。", "把 %s 重构一下，方便测试。", "为什么 %s 在大输入下很慢？"},
		answers: []string{"我检查了 %s，问题是循环边界差一。已修复并添加了回归测试。", "%s 每次调用都会重新读取整个文件，加缓存后快了很多。"},
		titles:  []string{"修复 %s", "重构 %s", "优化 %s 的性能"},
		sum:     "我们处理了 %s：定位问题、修复并补充测试。",
	},
	{
		asks:    []string{"%s の空入力でクラッシュします。見てもらえますか？", "%s をテストしやすいように整理してください。"},
		answers: []string{"%s を確認しました。ループ境界のずれが原因でした。修正してテストを追加しました。"},
		titles:  []string{"%s の修正", "%s のリファクタリング"},
		sum:     "%s の不具合を修正し、テストを追加しました。",
	},
	{
		asks:    []string{"Peux-tu regarder %s ? Ça plante quand l'entrée est vide.", "Réécris %s pour qu'il soit plus lisible, s'il te plaît."},
		answers: []string{"J'ai lu %s : la boucle dépassait d'un élément. C'est corrigé, avec un test de régression."},
		titles:  []string{"Corriger %s", "Réécriture de %s"},
		sum:     "Nous avons corrigé %s et ajouté des tests.",
	},
	{
		asks:    []string{"Schau dir bitte %s an – bei leerer Eingabe stürzt es ab. 🙏", "Können wir %s vereinfachen? Es ist schwer zu testen."},
		answers: []string{"In %s war die Schleifengrenze um eins verschoben. Behoben, Test ergänzt. ✅"},
		titles:  []string{"%s reparieren", "%s vereinfachen 🧹"},
		sum:     "%s wurde repariert und getestet.",
	},
}

func (l language) ask(rng *rand.Rand, t topic, turn int) string {
	s := fmt.Sprintf(l.asks[rng.IntN(len(l.asks))], t.thing)
	if turn > 0 {
		s = fmt.Sprintf("Follow-up on %s: %s", t.file, s)
	}
	return s
}

func (l language) answer(rng *rand.Rand, t topic) string {
	return fmt.Sprintf(l.answers[rng.IntN(len(l.answers))], t.file)
}

func (l language) title(rng *rand.Rand, t topic) string {
	return fmt.Sprintf(l.titles[rng.IntN(len(l.titles))], t.thing)
}

func (l language) summary(t topic) string { return fmt.Sprintf(l.sum, t.thing) }

var toolOutputs = []string{
	"ok  \tgithub.com/acme/app/internal/parser\t0.412s",
	"FAIL: TestRetry (0.02s)\n    retry_test.go:41: got 3 attempts, want 2",
	"$ git status\nOn branch main\nnothing to commit, working tree clean",
	"error[E0502]: cannot borrow `cache` as mutable because it is also borrowed as immutable",
}

// longLog is a very long message body, shared by every session that has
// one (strings are immutable, so sharing costs nothing).
var longLog = func() string {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "2026-11-%02d 12:%02d:%02d INFO worker=%d processed batch in %dms\n", 1+i%28, i%60, (i*7)%60, i%8, 10+i%90)
	}
	return b.String()
}()
