module github.com/stagger-physics/stagger

go 1.24.0

require (
	github.com/g3n/engine v0.2.0
	github.com/go-gl/mathgl v1.1.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20210410170116-ea3d685f79fb // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/image v0.25.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
