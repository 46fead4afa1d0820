//go:build cgo

package gpu

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

// The few CUDA driver API types used here, declared without cuda.h.
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;

#define SIMDRL_FN(ret, name, params) typedef ret(*name##_t) params; static name##_t p_##name;
SIMDRL_FN(CUresult, cuInit, (unsigned int))
SIMDRL_FN(CUresult, cuDriverGetVersion, (int *))
SIMDRL_FN(CUresult, cuDeviceGetCount, (int *))
SIMDRL_FN(CUresult, cuDeviceGet, (CUdevice *, int))
SIMDRL_FN(CUresult, cuDeviceGetName, (char *, int, CUdevice))
SIMDRL_FN(CUresult, cuDeviceGetAttribute, (int *, int, CUdevice))
SIMDRL_FN(CUresult, cuDeviceTotalMem, (size_t *, CUdevice))
SIMDRL_FN(CUresult, cuCtxCreate, (CUcontext *, unsigned int, CUdevice))
SIMDRL_FN(CUresult, cuCtxDestroy, (CUcontext))
SIMDRL_FN(CUresult, cuCtxSynchronize, (void))
SIMDRL_FN(CUresult, cuModuleLoadDataEx, (CUmodule *, const void *, unsigned int, int *, void **))
SIMDRL_FN(CUresult, cuModuleGetFunction, (CUfunction *, CUmodule, const char *))
SIMDRL_FN(CUresult, cuModuleUnload, (CUmodule))
SIMDRL_FN(CUresult, cuFuncSetAttribute, (CUfunction, int, int))
SIMDRL_FN(CUresult, cuMemAlloc, (CUdeviceptr *, size_t))
SIMDRL_FN(CUresult, cuMemFree, (CUdeviceptr))
SIMDRL_FN(CUresult, cuMemcpyHtoD, (CUdeviceptr, const void *, size_t))
SIMDRL_FN(CUresult, cuMemcpyDtoH, (void *, CUdeviceptr, size_t))
SIMDRL_FN(CUresult, cuMemsetD8, (CUdeviceptr, unsigned char, size_t))
SIMDRL_FN(CUresult, cuLaunchKernel, (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                                     unsigned int, CUstream, void **, void **))
SIMDRL_FN(CUresult, cuGetErrorName, (CUresult, const char **))
SIMDRL_FN(CUresult, cuGetErrorString, (CUresult, const char **))

static void *simdrl_lib;

// simdrl_cu_load opens the driver library and resolves every function;
// it returns NULL, or a message (dlerror's, or the missing symbol's name).
static const char *simdrl_cu_load(const char *lib) {
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		return e ? e : "dlopen failed";
	}
	// cuGetErrorName first, so that later failures can be named.
	p_cuGetErrorName = (cuGetErrorName_t)dlsym(h, "cuGetErrorName");
	p_cuGetErrorString = (cuGetErrorString_t)dlsym(h, "cuGetErrorString");
#define SIMDRL_SYM(name, sym) if (!(p_##name = (name##_t)dlsym(h, sym))) { return "symbol " sym " not found"; }
	SIMDRL_SYM(cuInit, "cuInit")
	SIMDRL_SYM(cuDriverGetVersion, "cuDriverGetVersion")
	SIMDRL_SYM(cuDeviceGetCount, "cuDeviceGetCount")
	SIMDRL_SYM(cuDeviceGet, "cuDeviceGet")
	SIMDRL_SYM(cuDeviceGetName, "cuDeviceGetName")
	SIMDRL_SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute")
	SIMDRL_SYM(cuDeviceTotalMem, "cuDeviceTotalMem_v2")
	SIMDRL_SYM(cuCtxCreate, "cuCtxCreate_v2")
	SIMDRL_SYM(cuCtxDestroy, "cuCtxDestroy_v2")
	SIMDRL_SYM(cuCtxSynchronize, "cuCtxSynchronize")
	SIMDRL_SYM(cuModuleLoadDataEx, "cuModuleLoadDataEx")
	SIMDRL_SYM(cuModuleGetFunction, "cuModuleGetFunction")
	SIMDRL_SYM(cuModuleUnload, "cuModuleUnload")
	SIMDRL_SYM(cuFuncSetAttribute, "cuFuncSetAttribute")
	SIMDRL_SYM(cuMemAlloc, "cuMemAlloc_v2")
	SIMDRL_SYM(cuMemFree, "cuMemFree_v2")
	SIMDRL_SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2")
	SIMDRL_SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2")
	SIMDRL_SYM(cuMemsetD8, "cuMemsetD8_v2")
	SIMDRL_SYM(cuLaunchKernel, "cuLaunchKernel")
	simdrl_lib = h;
	return NULL;
}

static int simdrl_cu_error_name(CUresult r, const char **name) {
	if (!p_cuGetErrorName) return -1;
	return p_cuGetErrorName(r, name);
}
static int simdrl_cu_error_string(CUresult r, const char **s) {
	if (!p_cuGetErrorString) return -1;
	return p_cuGetErrorString(r, s);
}

static CUresult w_cuInit(unsigned int f) { return p_cuInit(f); }
static CUresult w_cuDriverGetVersion(int *v) { return p_cuDriverGetVersion(v); }
static CUresult w_cuDeviceGetCount(int *n) { return p_cuDeviceGetCount(n); }
static CUresult w_cuDeviceGet(CUdevice *d, int i) { return p_cuDeviceGet(d, i); }
static CUresult w_cuDeviceGetName(char *s, int n, CUdevice d) { return p_cuDeviceGetName(s, n, d); }
static CUresult w_cuDeviceGetAttribute(int *v, int a, CUdevice d) { return p_cuDeviceGetAttribute(v, a, d); }
static CUresult w_cuDeviceTotalMem(size_t *b, CUdevice d) { return p_cuDeviceTotalMem(b, d); }
static CUresult w_cuCtxCreate(CUcontext *c, CUdevice d) { return p_cuCtxCreate(c, 0, d); }
static CUresult w_cuCtxDestroy(CUcontext c) { return p_cuCtxDestroy(c); }
static CUresult w_cuCtxSynchronize(void) { return p_cuCtxSynchronize(); }
static CUresult w_cuModuleLoad(CUmodule *m, const char *ptx, char *log, unsigned int logsize) {
	int opts[2] = {5, 6}; // CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
	void *vals[2] = {log, (void *)(uintptr_t)logsize};
	return p_cuModuleLoadDataEx(m, ptx, 2, opts, vals);
}
static CUresult w_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) { return p_cuModuleGetFunction(f, m, name); }
static CUresult w_cuModuleUnload(CUmodule m) { return p_cuModuleUnload(m); }
static CUresult w_cuFuncSetAttribute(CUfunction f, int a, int v) { return p_cuFuncSetAttribute(f, a, v); }
static CUresult w_cuMemAlloc(CUdeviceptr *p, size_t n) { return p_cuMemAlloc(p, n); }
static CUresult w_cuMemFree(CUdeviceptr p) { return p_cuMemFree(p); }
static CUresult w_cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) { return p_cuMemcpyHtoD(d, s, n); }
static CUresult w_cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) { return p_cuMemcpyDtoH(d, s, n); }
static CUresult w_cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) { return p_cuMemsetD8(d, v, n); }

// w_launch points kernelParams[i] at slots[i] (the packing of args.go).
static CUresult w_launch(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz,
                         unsigned int smem, uint64_t *slots, int n) {
	void *params[64];
	if (n > 64) return 1; // CUDA_ERROR_INVALID_VALUE
	for (int i = 0; i < n; i++) params[i] = &slots[i];
	return p_cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, (CUstream)0, params, (void **)0);
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// libName is the driver library Open loads (a variable for the loader tests).
var libName = "libcuda.so.1"

var loadOnce struct {
	sync.Mutex
	done bool
	err  error
	lib  string
}

// loadDriver dlopens the driver library and resolves the functions, once.
func loadDriver() error {
	loadOnce.Lock()
	defer loadOnce.Unlock()
	if loadOnce.done && loadOnce.lib == libName {
		return loadOnce.err
	}
	cs := C.CString(libName)
	defer C.free(unsafe.Pointer(cs))
	var err error
	if msg := C.simdrl_cu_load(cs); msg != nil {
		err = fmt.Errorf("gpu: cannot load the CUDA driver library %s (%s): is the NVIDIA driver installed?", libName, C.GoString(msg))
	}
	loadOnce.done, loadOnce.err, loadOnce.lib = true, err, libName
	return err
}

// errorName names a CUresult by cuGetErrorName, else from the fallback table.
func errorName(code int) string {
	var p *C.char
	if C.simdrl_cu_error_name(C.CUresult(code), &p) == 0 && p != nil {
		return C.GoString(p)
	}
	return fallbackErrorName(code)
}

func errorText(code int) string {
	var p *C.char
	if C.simdrl_cu_error_string(C.CUresult(code), &p) == 0 && p != nil {
		return C.GoString(p)
	}
	return ""
}

// check turns a CUresult into an *Error naming the call.
func check(call string, r C.CUresult) error {
	if r == 0 {
		return nil
	}
	return &Error{Call: call, Code: int(r), Name: errorName(int(r)), Text: errorText(int(r))}
}

// Device is an open GPU: one goroutine, locked to its OS thread, owns the
// CUDA context and makes every driver call; other goroutines hand it work
// with do.
type Device struct {
	Name          string
	Major, Minor  int // compute capability
	SMs           int
	SmemOptin     int // bytes of shared memory a block may opt in to
	TotalMem      int64
	DriverVersion int // cuDriverGetVersion: 1000·major + 10·minor
	PTXVersion    string
	PTXTarget     string

	calls  chan func()
	closed chan struct{}
	ctx    C.CUcontext
	mods   []C.CUmodule
	funcs  map[string]C.CUfunction
	sigs   map[string]string // each kernel's parameter sizes (ptxInfo.Params)
	// prof, when not nil, makes every launch wait for its kernel and adds
	// the launch-to-finish time under the kernel's name (BenchmarkGPUUpdate in bench_test.go).
	prof map[string]time.Duration
	args args
	mu   sync.Mutex
	open bool
}

// CUdevice_attribute and CUfunction_attribute values used here (cuda.h).
const (
	attrMultiprocessorCount = 16
	attrCCMajor             = 75
	attrCCMinor             = 76
	attrSmemOptin           = 97
	funcAttrMaxDynamicSmem  = 8
)

// Available reports why the GPU cannot be used, or nil when it can.
func Available() error {
	d, err := Open()
	if err != nil {
		return err
	}
	d.Close()
	return nil
}

// Open loads the driver, takes the first GPU (CUDA_VISIBLE_DEVICES applies),
// creates a context and loads the kernels. The error says what is missing.
func Open() (*Device, error) {
	d := &Device{calls: make(chan func()), closed: make(chan struct{}), funcs: map[string]C.CUfunction{}, sigs: map[string]string{}}
	ready := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		err := d.init()
		ready <- err
		if err != nil {
			return
		}
		for f := range d.calls {
			f()
		}
		d.release()
		close(d.closed)
	}()
	if err := <-ready; err != nil {
		return nil, err
	}
	d.open = true
	return d, nil
}

// do runs f on the context's thread and returns its error.
func (d *Device) do(f func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.open {
		return fmt.Errorf("gpu: device closed")
	}
	ch := make(chan error, 1)
	d.calls <- func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- fmt.Errorf("gpu: panic on the device thread: %v", p)
			}
		}()
		ch <- f()
	}
	return <-ch
}

// Close releases the context and everything allocated in it.
func (d *Device) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.open {
		return
	}
	d.open = false
	close(d.calls)
	<-d.closed
}

// Describe is the line logged when the device is opened.
func (d *Device) Describe() string {
	return fmt.Sprintf("gpu: %s (sm_%d%d, %d SMs, %.0f GiB), CUDA driver %s; kernels: PTX ISA %s for %s, compiled by the driver",
		d.Name, d.Major, d.Minor, d.SMs, float64(d.TotalMem)/(1<<30), driverString(d.DriverVersion), d.PTXVersion, d.PTXTarget)
}

func (d *Device) init() error {
	if err := loadDriver(); err != nil {
		return err
	}
	if r := C.w_cuInit(0); r != 0 {
		err := check("cuInit", r)
		if r == cudaErrorNoDevice {
			return fmt.Errorf("gpu: the CUDA driver (%s) is installed but found no GPU: %s", libName, strings.TrimPrefix(err.Error(), "gpu: "))
		}
		return fmt.Errorf("gpu: the CUDA driver (%s) did not initialise: %s", libName, strings.TrimPrefix(err.Error(), "gpu: "))
	}
	var v C.int
	if err := check("cuDriverGetVersion", C.w_cuDriverGetVersion(&v)); err != nil {
		return err
	}
	d.DriverVersion = int(v)
	var n C.int
	if err := check("cuDeviceGetCount", C.w_cuDeviceGetCount(&n)); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("gpu: the CUDA driver (%s) is installed but found no GPU", libName)
	}
	var dev C.CUdevice
	if err := check("cuDeviceGet", C.w_cuDeviceGet(&dev, 0)); err != nil {
		return err
	}
	var name [256]C.char
	if err := check("cuDeviceGetName", C.w_cuDeviceGetName(&name[0], 256, dev)); err != nil {
		return err
	}
	d.Name = strings.TrimSpace(C.GoString(&name[0]))
	for _, a := range []struct {
		attr int
		dst  *int
	}{{attrCCMajor, &d.Major}, {attrCCMinor, &d.Minor}, {attrMultiprocessorCount, &d.SMs}, {attrSmemOptin, &d.SmemOptin}} {
		var x C.int
		if err := check("cuDeviceGetAttribute", C.w_cuDeviceGetAttribute(&x, C.int(a.attr), dev)); err != nil {
			return err
		}
		*a.dst = int(x)
	}
	var mem C.size_t
	if err := check("cuDeviceTotalMem", C.w_cuDeviceTotalMem(&mem, dev)); err != nil {
		return err
	}
	d.TotalMem = int64(mem)
	if d.Major < 8 {
		return fmt.Errorf("gpu: %s has compute capability %d.%d; the kernels need 8.0 (Ampere) or newer", d.Name, d.Major, d.Minor)
	}
	if err := check("cuCtxCreate", C.w_cuCtxCreate(&d.ctx, dev)); err != nil {
		return err
	}
	if err := d.loadModules(); err != nil {
		d.release()
		return err
	}
	return nil
}

func (d *Device) loadModules() error {
	for _, m := range modules {
		src, info, err := loadPTX(m.Name)
		if err != nil {
			return err
		}
		d.PTXVersion, d.PTXTarget = info.Version, info.Target
		need, err := ptxDriverNeeded(info.Version)
		if err != nil {
			return fmt.Errorf("gpu: %s.ptx: %v", m.Name, err)
		}
		if d.DriverVersion < need {
			return fmt.Errorf("gpu: the NVIDIA driver supports CUDA %s, but the kernels are PTX ISA %s, which needs a driver for CUDA %s or newer: update the driver",
				driverString(d.DriverVersion), info.Version, driverString(need))
		}
		cs := C.CString(src)
		var log [8192]C.char
		var mod C.CUmodule
		r := C.w_cuModuleLoad(&mod, cs, &log[0], C.uint(len(log)))
		C.free(unsafe.Pointer(cs))
		if r != 0 {
			err := check("cuModuleLoadDataEx("+m.Name+".ptx)", r)
			if msg := strings.TrimSpace(C.GoString(&log[0])); msg != "" {
				err = fmt.Errorf("%v: %s", err, msg)
			}
			if r == cudaErrorUnsupportedPTX {
				err = fmt.Errorf("%v (the driver, CUDA %s, is too old for PTX ISA %s)", err, driverString(d.DriverVersion), info.Version)
			}
			return err
		}
		d.mods = append(d.mods, mod)
		for _, k := range m.Kernels {
			var f C.CUfunction
			ck := C.CString(k)
			r := C.w_cuModuleGetFunction(&f, mod, ck)
			C.free(unsafe.Pointer(ck))
			if err := check("cuModuleGetFunction("+k+")", r); err != nil {
				return err
			}
			d.funcs[k] = f
			d.sigs[k] = info.Params[k]
			if strings.Contains(k, "_rollout_") || strings.Contains(k, "_backward_") {
				if err := check("cuFuncSetAttribute("+k+")", C.w_cuFuncSetAttribute(f, funcAttrMaxDynamicSmem, C.int(d.SmemOptin))); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (d *Device) release() {
	for _, m := range d.mods {
		C.w_cuModuleUnload(m)
	}
	d.mods = nil
	if d.ctx != nil {
		C.w_cuCtxDestroy(d.ctx)
		d.ctx = nil
	}
}

// The calls below run on the device thread only (inside do).

func (d *Device) alloc(bytes int) (devPtr, error) {
	var p C.CUdeviceptr
	if err := check("cuMemAlloc", C.w_cuMemAlloc(&p, C.size_t(max(bytes, 4)))); err != nil {
		return 0, fmt.Errorf("%v (%d bytes)", err, bytes)
	}
	if err := check("cuMemsetD8", C.w_cuMemsetD8(p, 0, C.size_t(max(bytes, 4)))); err != nil {
		return 0, err
	}
	return devPtr(p), nil
}

func (d *Device) free(p devPtr) {
	if p != 0 {
		C.w_cuMemFree(C.CUdeviceptr(p))
	}
}

func (d *Device) zero(p devPtr, bytes int) error {
	return check("cuMemsetD8", C.w_cuMemsetD8(C.CUdeviceptr(p), 0, C.size_t(bytes)))
}

// upload copies len(src) elements (float32, int32, float64…) to p.
func upload[T any](p devPtr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	n := len(src) * int(unsafe.Sizeof(src[0]))
	return check("cuMemcpyHtoD", C.w_cuMemcpyHtoD(C.CUdeviceptr(p), unsafe.Pointer(&src[0]), C.size_t(n)))
}

// download copies len(dst) elements from p; it waits for the work before it.
func download[T any](dst []T, p devPtr) error {
	if len(dst) == 0 {
		return nil
	}
	n := len(dst) * int(unsafe.Sizeof(dst[0]))
	return check("cuMemcpyDtoH", C.w_cuMemcpyDtoH(unsafe.Pointer(&dst[0]), C.CUdeviceptr(p), C.size_t(n)))
}

func (d *Device) sync() error { return check("cuCtxSynchronize", C.w_cuCtxSynchronize()) }

// launch starts kernel name on grid × block threads with smem bytes of
// dynamic shared memory and the packed arguments a.
func (d *Device) launch(name string, grid, block [3]int, smem int, a *args) error {
	f, ok := d.funcs[name]
	if !ok {
		return fmt.Errorf("gpu: kernel %s not loaded", name)
	}
	// The driver reads each parameter's size from the pointer it is given:
	// a wrong count, width or order would launch with garbage, so refuse it
	// here: against the ABI table by name and kind, and against the PTX's
	// widths.
	if err := a.follows(name); err != nil {
		return err
	}
	if !a.matches(d.sigs[name]) {
		return fmt.Errorf("gpu: launching %s with parameter sizes %s, but its PTX declares %s", name, a.signature(), d.sigs[name])
	}
	t0 := time.Now()
	var p *C.uint64_t
	if len(a.slots) > 0 {
		p = (*C.uint64_t)(unsafe.Pointer(&a.slots[0]))
	}
	r := C.w_launch(f, C.uint(grid[0]), C.uint(grid[1]), C.uint(grid[2]), C.uint(block[0]), C.uint(block[1]), C.uint(block[2]),
		C.uint(smem), p, C.int(len(a.slots)))
	if r != 0 {
		return fmt.Errorf("%v (grid %v, block %v, %d bytes shared)", check("cuLaunchKernel("+name+")", r), grid, block, smem)
	}
	if d.prof != nil {
		if err := d.sync(); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		d.prof[name] += time.Since(t0)
	}
	return nil
}
