module github.com/stagger-physics/stagger

go 1.25

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/g3n/engine v0.2.0
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20210410170116-ea3d685f79fb
	github.com/go-gl/mathgl v1.1.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/image v0.25.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
