module github.com/mmaes-go/mmaes

go 1.25.0

require golang.org/x/sys v0.47.0
