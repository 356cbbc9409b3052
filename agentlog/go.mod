module github.com/dshkit/mentions/agentlog

go 1.25.0

require (
	github.com/dshkit/mentions v0.0.0-00010101000000-000000000000
	github.com/valyala/fastjson v1.6.4
)

require (
	github.com/google/uuid v1.6.0 // indirect
	golang.org/x/text v0.20.0 // indirect
)

replace github.com/dshkit/mentions => ../
