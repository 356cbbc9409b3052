module github.com/dshkit/mentions/dshlog

go 1.25.0

// Floors (see docs/dependencies.md): go 1.25.0 for sync.WaitGroup.Go;
// klauspost/compress v1.17.0 for the streaming decoder's memory caps;
// fastjson v1.6.4, the oldest release served.
require (
	github.com/dshkit/mentions v0.0.0-00010101000000-000000000000
	github.com/klauspost/compress v1.17.0
	github.com/valyala/fastjson v1.6.4
)

require (
	github.com/google/uuid v1.6.0 // indirect
	golang.org/x/text v0.20.0 // indirect
)

replace github.com/dshkit/mentions => ../
