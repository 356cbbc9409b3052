module github.com/dshkit/mentions/agentlog/bench

go 1.25.0

// Benchmarks only: the stores side by side (see gen.go).
require (
	github.com/dshkit/mentions v0.0.0-00010101000000-000000000000
	github.com/dshkit/mentions/agentlog v0.0.0-00010101000000-000000000000
	github.com/dshkit/mentions/discover v0.0.0-00010101000000-000000000000
	github.com/dshkit/mentions/dshlog v0.0.0-00010101000000-000000000000
)

require (
	github.com/charmbracelet/x/ansi v0.11.7 // indirect
	github.com/clipperhouse/displaywidth v0.11.0 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/klauspost/compress v1.17.0 // indirect
	github.com/lucasb-eyer/go-colorful v1.4.0 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/mattn/go-runewidth v0.0.23 // indirect
	github.com/ncruces/go-strftime v0.1.9 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/valyala/fastjson v1.6.4 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/text v0.20.0 // indirect
	modernc.org/gc/v3 v3.0.0-20240107210532-573471604cb6 // indirect
	modernc.org/libc v1.55.3 // indirect
	modernc.org/mathutil v1.6.0 // indirect
	modernc.org/memory v1.8.0 // indirect
	modernc.org/sqlite v1.29.0 // indirect
	modernc.org/strutil v1.2.0 // indirect
	modernc.org/token v1.1.0 // indirect
)

replace (
	github.com/dshkit/mentions => ../../
	github.com/dshkit/mentions/agentlog => ../
	github.com/dshkit/mentions/discover => ../../discover
	github.com/dshkit/mentions/dshlog => ../../dshlog
)
