package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestPoseApplyMatchesQuaternionRotation(t *testing.T) {
	r := newRand(1)
	for i := 0; i < 200; i++ {
		p := randPose(r, 10)
		x := randInCube(r, 5)
		// Independent reference: q·(0,x)·q*.
		q := p.Rotation
		want := q.Mul(mgl64.Quat{V: x}).Mul(q.Conjugate()).V.Add(p.Position)
		if got := p.Apply(x); !nearVec(got, want, 1e-12) {
			t.Fatalf("Apply(%v) = %v, want %v", x, got, want)
		}
		if back := p.ApplyInverse(p.Apply(x)); !nearVec(back, x, 1e-12) {
			t.Fatalf("ApplyInverse(Apply(x)) = %v, want %v", back, x)
		}
		m := p.Matrix()
		if got := m.Mul3x1(x).Add(p.Position); !nearVec(got, want, 1e-12) {
			t.Fatalf("Matrix·x = %v, want %v", got, want)
		}
	}
}

func TestPoseComposeAndInverse(t *testing.T) {
	r := newRand(2)
	for i := 0; i < 100; i++ {
		a, b := randPose(r, 3), randPose(r, 3)
		x := randInCube(r, 2)
		if got, want := a.Mul(b).Apply(x), a.Apply(b.Apply(x)); !nearVec(got, want, 1e-12) {
			t.Fatalf("Mul: %v, want %v", got, want)
		}
		if got := a.Inverse().Apply(a.Apply(x)); !nearVec(got, x, 1e-12) {
			t.Fatalf("Inverse: %v, want %v", got, x)
		}
	}
}

func TestPoseIdentityAndZero(t *testing.T) {
	x := mgl64.Vec3{1, -2, 3}
	if got := IdentityPose().Apply(x); got != x {
		t.Fatalf("identity moved %v to %v", x, got)
	}
	if got := (Pose{}).Apply(x); got != x {
		t.Fatalf("zero pose moved %v to %v", x, got)
	}
	q := mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 0, 1})
	p := Pose{Position: mgl64.Vec3{1, 0, 0}, Rotation: q}
	if got := p.Apply(mgl64.Vec3{1, 0, 0}); !nearVec(got, mgl64.Vec3{1, 1, 0}, 1e-15) {
		t.Fatalf("quarter turn: %v", got)
	}
}

func TestPoseValidate(t *testing.T) {
	if err := IdentityPose().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		p     Pose
		field string
	}{
		{Pose{Rotation: mgl64.Quat{W: 2}}, "Pose.Rotation"},
		{Pose{}, "Pose.Rotation"},
		{Pose{Position: mgl64.Vec3{0, math.NaN(), 0}, Rotation: mgl64.QuatIdent()}, "Pose.Position.y"},
		{Pose{Rotation: mgl64.Quat{W: math.Inf(1)}}, "Pose.Rotation.W"},
	}
	for _, c := range bad {
		err := c.p.Validate()
		if err == nil || !containsField(err, c.field) {
			t.Errorf("Validate(%v) = %v, want error naming %s", c.p, err, c.field)
		}
	}
	p, err := NewPose(mgl64.Vec3{1, 2, 3}, mgl64.Quat{W: 2})
	if err != nil || p.Rotation != mgl64.QuatIdent() {
		t.Fatalf("NewPose normalises: %v %v", p, err)
	}
	if _, err := NewPose(mgl64.Vec3{}, mgl64.Quat{}); err == nil {
		t.Fatal("NewPose accepted a zero quaternion")
	}
}
