//go:build ignore

// (The constraint above keeps the go command from treating this file as a cgo source of
// package bullet, which embeds it instead.)

// harness: runs a stagger scene, exported by bench/bullet's exporter, in Bullet and prints one
// JSON line with the step times and a few figures of the run. The scene format, the mapping of
// bodies and shapes and the measurements are described in bench/bullet/doc.go.
//
//   harness [-seconds S] [-sleep scene|bullet|off] [-final] [FILE]
//
// reads the scene from FILE (or stdin), steps it round(S / dt) times (S defaults to 10 s, as the
// runner's -seconds) and prints the Result. -final adds every body's final state. Errors print
// one line "harness: ..." on stderr and exit with status 2.
//
// Build: g++ -O2 -std=c++17 harness.cpp $(pkg-config --cflags --libs bullet)

#include <btBulletDynamicsCommon.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <LinearMath/btTransformUtil.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const char* format, ...) {
	va_list args;
	va_start(args, format);
	std::fputs("harness: ", stderr);
	std::vfprintf(stderr, format, args);
	std::fputc('\n', stderr);
	va_end(args);
	std::exit(2);
}

// Vec is a double-precision vector: the scene is read and prepared in double precision whatever
// btScalar is, and converted to btScalar only when handed to Bullet.
using Vec = std::array<double, 3>;

double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec cross(const Vec& a, const Vec& b) {
	return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
btVector3 bt(const Vec& v) { return btVector3(btScalar(v[0]), btScalar(v[1]), btScalar(v[2])); }

// Plane is the solid side {x : n·x <= d} of a hull face.
struct Plane {
	Vec n;
	double d;
};

// Body is one body of the scene, as exported.
struct Body {
	std::string kind;  // static, dynamic or kinematic
	Vec position;
	double quat[4];  // w x y z
	Vec linear, angular;
	double mass;
	double inertia[3][3];
	double friction, restitution;
	std::string shape;            // none, sphere, box, capsule, halfspace, hull
	std::vector<double> params;   // sphere r; box hx hy hz; capsule r hh; halfspace nx ny nz d
	std::vector<Vec> points;      // hull vertices
	std::vector<Plane> planes;    // hull faces
	long long step = 0;           // the step (from 0) before which the body appears: 0 unless spawned
	long long removed = -1;       // the step before which the script removes it: -1 never
};

// Scene is the exported scene.
struct Scene {
	std::string name;
	long long n = 0;
	unsigned long long seed = 0;
	double dt = 0;
	Vec gravity{};
	double sleepTime = 0, sleepLinear = 0, sleepAngular = 0;
	std::vector<Body> bodies;
};

// Reader reads the scene format's whitespace-separated tokens.
class Reader {
   public:
	explicit Reader(std::istream& in) : in_(in) {}

	std::string word() {
		std::string w;
		if (!(in_ >> w)) fail("scene: unexpected end of input");
		return w;
	}
	void expect(const char* keyword) {
		std::string w = word();
		if (w != keyword) fail("scene: expected \"%s\", got \"%s\"", keyword, w.c_str());
	}
	double number() {
		std::string w = word();
		char* end = nullptr;
		double x = std::strtod(w.c_str(), &end);
		if (end == w.c_str() || *end != '\0' || !std::isfinite(x)) fail("scene: bad number \"%s\"", w.c_str());
		return x;
	}
	long long integer() {
		double x = number();
		if (x != std::floor(x) || std::fabs(x) > 9e15) fail("scene: expected an integer, got %g", x);
		return static_cast<long long>(x);
	}
	Vec vec() {
		Vec v;
		for (double& x : v) x = number();
		return v;
	}

   private:
	std::istream& in_;
};

// readBody reads body i's six lines.
Body readBody(Reader& r, long long i) {
	Body b;
	r.expect("body");
	b.kind = r.word();
	if (b.kind != "static" && b.kind != "dynamic" && b.kind != "kinematic") fail("body %lld: unknown kind %s", i, b.kind.c_str());
	r.expect("pose");
	b.position = r.vec();
	for (double& x : b.quat) x = r.number();
	r.expect("velocity");
	b.linear = r.vec();
	b.angular = r.vec();
	r.expect("mass");
	b.mass = r.number();
	for (auto& row : b.inertia)
		for (double& x : row) x = r.number();
	r.expect("material");
	b.friction = r.number();
	b.restitution = r.number();
	r.expect("shape");
	b.shape = r.word();
	int params = 0;
	if (b.shape == "sphere") params = 1;
	else if (b.shape == "box") params = 3;
	else if (b.shape == "capsule") params = 2;
	else if (b.shape == "halfspace") params = 4;
	else if (b.shape == "hull") {
		long long v = r.integer();
		if (v < 4) fail("body %lld: a hull needs at least 4 vertices", i);
		for (long long k = 0; k < v; k++) b.points.push_back(r.vec());
		long long f = r.integer();
		if (f < 4) fail("body %lld: a hull needs at least 4 faces", i);
		for (long long k = 0; k < f; k++) {
			Plane p;
			p.n = r.vec();
			p.d = r.number();
			b.planes.push_back(p);
		}
	} else if (b.shape != "none") fail("body %lld: unknown shape %s", i, b.shape.c_str());
	for (int k = 0; k < params; k++) b.params.push_back(r.number());
	if (b.kind == "dynamic" && !(b.mass > 0)) fail("body %lld: a dynamic body needs a mass > 0", i);
	if (b.shape == "halfspace" && b.kind != "static") fail("body %lld: a half-space can only be static", i);
	return b;
}

Scene readScene(std::istream& in) {
	Reader r(in);
	Scene s;
	r.expect("stagger-scene");
	if (r.integer() != 3) fail("scene: unknown format version");
	r.expect("scene");
	s.name = r.word();
	r.expect("n");
	s.n = r.integer();
	r.expect("seed");
	// The seed is a uint64 and may not fit a double exactly: read it as text.
	std::string seed = r.word();
	s.seed = std::strtoull(seed.c_str(), nullptr, 10);
	r.expect("dt");
	s.dt = r.number();
	if (!(s.dt > 0)) fail("scene: dt must be > 0");
	r.expect("gravity");
	s.gravity = r.vec();
	r.expect("sleep");
	s.sleepTime = r.number();
	s.sleepLinear = r.number();
	s.sleepAngular = r.number();
	r.expect("bodies");
	long long count = r.integer();
	if (count < 0) fail("scene: negative body count");
	for (long long i = 0; i < count; i++) s.bodies.push_back(readBody(r, i));
	r.expect("spawns");
	long long spawns = r.integer();
	if (spawns < 0) fail("scene: negative spawn count");
	for (long long i = 0; i < spawns; i++) {
		r.expect("at");
		long long step = r.integer();
		if (step < 0) fail("spawn %lld: negative step", i);
		Body b = readBody(r, count + i);
		b.step = step;
		s.bodies.push_back(std::move(b));
	}
	r.expect("removals");
	long long removals = r.integer();
	if (removals < 0) fail("scene: negative removal count");
	for (long long i = 0; i < removals; i++) {
		r.expect("remove");
		long long step = r.integer(), index = r.integer();
		if (index < 0 || index >= (long long)s.bodies.size()) fail("removal %lld: no body %lld", i, index);
		if (step <= s.bodies[size_t(index)].step) fail("removal %lld: body %lld removed before it appears", i, index);
		s.bodies[size_t(index)].removed = step;
	}
	r.expect("end");
	return s;
}

// combinedFriction and combinedRestitution replace Bullet's products by stagger's rules
// (physics/material.go), so that both engines see the same contact coefficients.
btScalar combinedFriction(const btCollisionObject* a, const btCollisionObject* b) {
	return btSqrt(a->getFriction() * b->getFriction());
}
btScalar combinedRestitution(const btCollisionObject* a, const btCollisionObject* b) {
	return btMax(a->getRestitution(), b->getRestitution());
}

// hullMargin is the margin btBoxShape would give a box of the hull's bounding half extents:
// Bullet's default 0.04 m, at most a tenth of the smallest half extent (setSafeMargin).
double hullMargin(const std::vector<Vec>& points) {
	Vec lo = points[0], hi = points[0];
	for (const Vec& p : points)
		for (int k = 0; k < 3; k++) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
	double half = std::min({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}) / 2;
	return std::min(0.04, 0.1 * half);
}

// shrunkHull returns the vertices of the polytope {x : n·x <= d − margin} over the hull's
// planes: every intersection of three planes that lies inside all of them. Bullet adds the
// margin back around these points, so the margin-rounded hull has stagger's faces. Bullet's own
// btGeometryUtil does the same with absolute tolerances of 1 cm, too coarse for 10 cm bodies;
// here they are relative to the hull's size. Returns fewer than 4 points if the hull is too thin.
std::vector<Vec> shrunkHull(const std::vector<Plane>& planes, const std::vector<Vec>& points, double margin) {
	double size = 0;
	for (const Vec& p : points) size = std::max(size, std::sqrt(dot(p, p)));
	const double tol = 1e-9 * std::max(size, 1e-3);
	std::vector<Vec> out;
	const size_t f = planes.size();
	for (size_t i = 0; i < f; i++)
		for (size_t j = i + 1; j < f; j++)
			for (size_t k = j + 1; k < f; k++) {
				const Plane &a = planes[i], &b = planes[j], &c = planes[k];
				Vec bc = cross(b.n, c.n), ca = cross(c.n, a.n), ab = cross(a.n, b.n);
				double det = dot(a.n, bc);
				if (std::fabs(det) < 1e-9) continue;  // two of the planes (nearly) parallel
				double da = a.d - margin, db = b.d - margin, dc = c.d - margin;
				Vec x;
				for (int m = 0; m < 3; m++) x[m] = (da * bc[m] + db * ca[m] + dc * ab[m]) / det;
				bool inside = true;
				for (const Plane& p : planes)
					if (dot(p.n, x) > p.d - margin + tol) {
						inside = false;
						break;
					}
				if (!inside) continue;
				bool seen = false;
				for (const Vec& y : out) {
					Vec d{x[0] - y[0], x[1] - y[1], x[2] - y[2]};
					if (dot(d, d) <= tol * tol * 100) {
						seen = true;
						break;
					}
				}
				if (!seen) out.push_back(x);
			}
	return out;
}

// Rot is a rotation as a double 3×3 matrix, for moving hull data into a principal frame.
struct Rot {
	double m[3][3];
	Vec apply(const Vec& v) const {
		return {m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2], m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
		        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]};
	}
};

// Built is a body handed to Bullet, with what the harness needs to measure it.
struct Built {
	btRigidBody* body = nullptr;
	const Body* from = nullptr;  // the scene's body it was built from
	bool gone = false;           // removed by the scene's script
	bool dynamic = false, kinematic = false;
	btQuaternion principal = btQuaternion::getIdentity();  // body frame ← Bullet's (principal) frame
	btVector3 start;
	btVector3 linear, angular;  // a kinematic body's velocities
};

// World owns the Bullet objects.
struct World {
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher{&config};
	btDbvtBroadphase broadphase;
	btSequentialImpulseConstraintSolver solver;
	btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
	std::vector<std::unique_ptr<btCollisionShape>> shapes;
	std::vector<std::unique_ptr<btRigidBody>> bodies;
	std::vector<Built> built;
	long long ticks = 0;

	~World() {
		for (auto& b : bodies) world.removeRigidBody(b.get());
	}
};

void countTick(btDynamicsWorld* w, btScalar) { static_cast<World*>(w->getWorldUserInfo())->ticks++; }

// leafShape returns the Bullet shape of a body's collider. A hull of a body with a principal frame
// (rotated) is returned in that frame, its points and planes turned by toPrincipal (principal ←
// body); every other shape is returned in stagger's body frame, and the caller places it.
btCollisionShape* leafShape(World& w, const Body& b, const Rot& toPrincipal, bool rotated) {
	btCollisionShape* s = nullptr;
	const auto& p = b.params;
	if (b.shape == "sphere") {
		s = new btSphereShape(btScalar(p[0]));
	} else if (b.shape == "box") {
		s = new btBoxShape(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])));
	} else if (b.shape == "capsule") {
		// stagger's capsule: radius p[0] around the segment from −hh to +hh on local z. Bullet's
		// btCapsuleShapeZ takes the segment's whole length; a zero-length one is a sphere.
		if (p[1] > 0) s = new btCapsuleShapeZ(btScalar(p[0]), btScalar(2 * p[1]));
		else s = new btSphereShape(btScalar(p[0]));
	} else if (b.shape == "halfspace") {
		s = new btStaticPlaneShape(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])), btScalar(p[3]));
	} else if (b.shape == "hull") {
		std::vector<Vec> points = b.points;
		std::vector<Plane> planes = b.planes;
		if (rotated) {
			for (Vec& q : points) q = toPrincipal.apply(q);
			for (Plane& q : planes) q.n = toPrincipal.apply(q.n);
		}
		double margin = hullMargin(points);
		std::vector<Vec> inner = shrunkHull(planes, points, margin);
		if (inner.size() < 4) {
			inner = points;
			margin = 0;
		}
		auto* hull = new btConvexHullShape();
		for (const Vec& q : inner) hull->addPoint(bt(q), false);
		hull->recalcLocalAabb();
		hull->setMargin(btScalar(margin));
		s = hull;
	} else {
		s = new btEmptyShape();
	}
	w.shapes.emplace_back(s);
	return s;
}

void addBody(World& w, const Scene& sc, const std::string& sleep, const Body& b);

// build sets up w's world for sc and adds the bodies present from the start.
void build(World& w, const Scene& sc, const std::string& sleep) {
	gCalculateCombinedFrictionCallback = combinedFriction;
	gCalculateCombinedRestitutionCallback = combinedRestitution;
	w.world.setGravity(bt(sc.gravity));
	w.world.setInternalTickCallback(countTick, &w);
	bool sleeps = sleep == "bullet" || (sleep == "scene" && sc.sleepTime > 0);
	gDisableDeactivation = !sleeps;
	if (sleep == "scene" && sleeps) gDeactivationTime = btScalar(sc.sleepTime);
	for (const Body& b : sc.bodies)
		if (b.step == 0) addBody(w, sc, sleep, b);
}

// addBody builds body b in w's world.
void addBody(World& w, const Scene& sc, const std::string& sleep, const Body& b) {
	Built out;
	out.from = &b;
	out.dynamic = b.kind == "dynamic";
	out.kinematic = b.kind == "kinematic";
	// Bullet's inertia is diagonal in its body frame. stagger's is diagonal for spheres, boxes
	// and capsules; for hulls, diagonalise it and use the principal frame as Bullet's.
	btVector3 diag(0, 0, 0);
	Rot toPrincipal{};  // principal ← body
	bool rotated = false;
	if (out.dynamic) {
		double off = 0, trace = 0;
		for (int i = 0; i < 3; i++) {
			trace += std::fabs(b.inertia[i][i]);
			for (int j = 0; j < 3; j++)
				if (i != j) off = std::max(off, std::fabs(b.inertia[i][j]));
		}
		if (off > 1e-12 * trace) {
			// Symmetrise (the exported tensor may differ from its transpose by round-off).
			btMatrix3x3 m;
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 3; j++) m[i][j] = btScalar((b.inertia[i][j] + b.inertia[j][i]) / 2);
			btMatrix3x3 rot;  // m = rot · diag · rotᵀ: rot takes principal axes to body axes
			m.diagonalize(rot, SIMD_EPSILON, 64);  // Jacobi rotations: rot is proper
			diag = btVector3(m[0][0], m[1][1], m[2][2]);
			rot.getRotation(out.principal);
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 3; j++) toPrincipal.m[i][j] = rot[j][i];
			rotated = true;
		} else {
			diag = btVector3(btScalar(b.inertia[0][0]), btScalar(b.inertia[1][1]), btScalar(b.inertia[2][2]));
		}
	}
	btCollisionShape* shape = leafShape(w, b, toPrincipal, rotated);
	if (rotated && b.shape != "hull") {
		// Place the shape, given in stagger's body frame, in the principal frame.
		auto* compound = new btCompoundShape();
		compound->addChildShape(btTransform(out.principal.inverse()), shape);
		w.shapes.emplace_back(compound);
		shape = compound;
	}
	btQuaternion q(btScalar(b.quat[1]), btScalar(b.quat[2]), btScalar(b.quat[3]), btScalar(b.quat[0]));
	btTransform pose(q.normalized() * out.principal, bt(b.position));
	btScalar mass = out.dynamic ? btScalar(b.mass) : btScalar(0);
	btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, diag);
	info.m_startWorldTransform = pose;
	info.m_friction = btScalar(b.friction);
	info.m_restitution = btScalar(b.restitution);
	if (sleep == "scene") {
		info.m_linearSleepingThreshold = btScalar(sc.sleepLinear);
		info.m_angularSleepingThreshold = btScalar(sc.sleepAngular);
	}
	auto* body = new btRigidBody(info);
	w.bodies.emplace_back(body);
	out.linear = bt(b.linear);
	out.angular = bt(b.angular);
	if (out.dynamic) {
		body->setLinearVelocity(out.linear);
		body->setAngularVelocity(out.angular);
	}
	if (out.kinematic) {
		body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
		body->setActivationState(DISABLE_DEACTIVATION);
	}
	out.body = body;
	out.start = pose.getOrigin();
	w.world.addRigidBody(body);
	w.built.push_back(out);
}

// Stats are the run's figures.
struct Stats {
	std::vector<double> ms;
	double maxPenetration = 0, maxShift = 0, maxDrop = 0;
	double contacts = 0, sleeping = 0;
	bool nonfinite = false;
};

void measure(World& w, Stats& st) {
	int manifolds = w.dispatcher.getNumManifolds();
	for (int i = 0; i < manifolds; i++) {
		btPersistentManifold* m = w.dispatcher.getManifoldByIndexInternal(i);
		for (int j = 0; j < m->getNumContacts(); j++) {
			st.maxPenetration = std::max(st.maxPenetration, -double(m->getContactPoint(j).getDistance()));
			st.contacts++;
		}
	}
	for (const Built& b : w.built) {
		if (!b.dynamic || b.gone) continue;
		const btTransform& t = b.body->getWorldTransform();
		btVector3 d = t.getOrigin() - b.start;
		st.maxShift = std::max(st.maxShift, std::hypot(double(d.x()), double(d.y())));
		st.maxDrop = std::max(st.maxDrop, -double(d.z()));
		if (b.body->getActivationState() == ISLAND_SLEEPING) st.sleeping++;
		const btVector3 v[] = {t.getOrigin(), b.body->getLinearVelocity(), b.body->getAngularVelocity()};
		for (const btVector3& x : v)
			if (!std::isfinite(x.x()) || !std::isfinite(x.y()) || !std::isfinite(x.z())) st.nonfinite = true;
		btQuaternion q = t.getRotation();
		if (!std::isfinite(q.x()) || !std::isfinite(q.y()) || !std::isfinite(q.z()) || !std::isfinite(q.w())) st.nonfinite = true;
	}
}

// percentile returns the q-quantile of xs (nearest rank), as the runner computes it.
double percentile(std::vector<double> xs, double q) {
	if (xs.empty()) return 0;
	std::sort(xs.begin(), xs.end());
	long i = long(std::ceil(q * double(xs.size()))) - 1;
	return xs[std::max(0L, std::min(i, long(xs.size()) - 1))];
}

// number writes x for JSON: non-finite values (after a blow-up) become null.
std::string number(double x) {
	if (!std::isfinite(x)) return "null";
	char buf[32];
	std::snprintf(buf, sizeof buf, "%.9g", x);
	return buf;
}

}  // namespace

int main(int argc, char** argv) {
	double seconds = 10;
	std::string sleep = "scene", path = "-";
	bool final = false;
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		if (a == "-seconds" && i + 1 < argc) {
			char* end = nullptr;
			seconds = std::strtod(argv[++i], &end);
			if (*end != '\0' || !(seconds > 0) || !std::isfinite(seconds)) fail("-seconds must be finite and > 0, got %s", argv[i]);
		} else if (a == "-sleep" && i + 1 < argc) {
			sleep = argv[++i];
			if (sleep != "scene" && sleep != "bullet" && sleep != "off") fail("-sleep must be scene, bullet or off, got %s", sleep.c_str());
		} else if (a == "-final") {
			final = true;
		} else if (a.size() > 1 && a[0] == '-') {
			fail("unknown flag %s", a.c_str());
		} else {
			path = a;
		}
	}
	Scene sc;
	if (path == "-") {
		sc = readScene(std::cin);
	} else {
		std::ifstream in(path);
		if (!in) fail("cannot read %s", path.c_str());
		sc = readScene(in);
	}
	if (seconds / sc.dt > 1e8) fail("-seconds / dt is more than 1e8 steps");
	long long steps = std::llround(seconds / sc.dt);

	World w;
	build(w, sc, sleep);
	Stats st;
	st.ms.reserve(size_t(steps));
	const btScalar dt = btScalar(sc.dt);
	for (long long i = 0; i < steps; i++) {
		for (Built& b : w.built)
			if (!b.gone && b.from->removed == i) {  // a scripted removal, before its step
				w.world.removeRigidBody(b.body);
				b.gone = true;
			}
		if (i > 0)
			for (const Body& b : sc.bodies)
				if (b.step == i) addBody(w, sc, sleep, b);  // a scripted spawn, before its step
		for (Built& b : w.built) {
			if (!b.kinematic) continue;
			// Bullet derives a kinematic body's velocity from how far the game moved it.
			btTransform next;
			btTransformUtil::integrateTransform(b.body->getWorldTransform(), b.linear, b.angular, dt, next);
			b.body->setWorldTransform(next);
		}
		auto t0 = std::chrono::steady_clock::now();
		// maxSubSteps 0: one internal step of exactly dt, no interpolation.
		w.world.stepSimulation(dt, 0);
		auto t1 = std::chrono::steady_clock::now();
		st.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
		measure(w, st);
	}
	if (w.ticks != steps) fail("Bullet ran %lld internal steps for %lld calls", w.ticks, steps);

	double maxMs = st.ms.empty() ? 0 : *std::max_element(st.ms.begin(), st.ms.end());
	std::string out = "{\"scene\":\"" + sc.name + "\",\"n\":" + std::to_string(sc.n) + ",\"seed\":" + std::to_string(sc.seed) +
	                  ",\"dt\":" + number(sc.dt) + ",\"steps\":" + std::to_string(steps) +
	                  ",\"bodies\":" + std::to_string(sc.bodies.size()) + ",\"bullet\":\"" + std::to_string(BT_BULLET_VERSION / 100) +
	                  "." + std::to_string(BT_BULLET_VERSION % 100) + "\",\"precision\":\"" +
	                  (sizeof(btScalar) == 8 ? "double" : "float") + "\",\"sleep\":\"" + sleep + "\"" +
	                  ",\"contacts_mean\":" + number(steps ? st.contacts / double(steps) : 0) +
	                  ",\"sleeping_mean\":" + number(steps ? st.sleeping / double(steps) : 0) +
	                  ",\"ms_median\":" + number(percentile(st.ms, 0.5)) + ",\"ms_p95\":" + number(percentile(st.ms, 0.95)) +
	                  ",\"ms_max\":" + number(maxMs) + ",\"max_shift\":" + number(st.maxShift) + ",\"max_drop\":" +
	                  number(st.maxDrop) + ",\"max_penetration\":" + number(st.maxPenetration) +
	                  ",\"nonfinite\":" + (st.nonfinite ? "true" : "false");
	if (final) {
		out += ",\"final\":[";
		for (size_t i = 0; i < w.built.size(); i++) {
			const Built& b = w.built[i];
			const btTransform& t = b.body->getWorldTransform();
			// Back from Bullet's (principal) frame to stagger's body frame.
			btQuaternion q = t.getRotation() * b.principal.inverse();
			btVector3 v = b.body->getLinearVelocity(), a = b.body->getAngularVelocity();
			if (b.kinematic) v = b.linear, a = b.angular;
			const double x[13] = {t.getOrigin().x(), t.getOrigin().y(), t.getOrigin().z(), q.w(), q.x(), q.y(), q.z(),
			                      v.x(), v.y(), v.z(), a.x(), a.y(), a.z()};
			out += i ? ",[" : "[";
			for (int k = 0; k < 13; k++) out += (k ? "," : "") + number(x[k]);
			out += "]";
		}
		out += "]";
	}
	out += "}\n";
	std::fputs(out.c_str(), stdout);
	return 0;
}
