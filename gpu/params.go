//go:build cgo

package gpu

// The parameters: upload, download and the derived tensors.

// setParams uploads params and refreshes the derived tensors.
func (e *engine) setParams(params []float32) error {
	if err := upload(e.P, params); err != nil {
		return err
	}
	return e.derive()
}

func (e *engine) getParams(dst []float32) error { return download(dst, e.P) }

func (e *engine) derive() error {
	V, H := e.V, e.H
	total := e.NV*3*H + H*3*H + 2*H*(V+1) + V + 1
	e.a.reset().ptr("P", e.P).i32("d", H).i32("V", V).i32("S", e.S).i32("O", e.O).ptr("not_action", e.notAct).ptr("table", e.table).ptr("whhT", e.whhT).
		ptr("headsT", e.headsT).ptr("headsN", e.headsN).ptr("headsB", e.headsB)
	if err := e.launch("simdrl_derive", gridFor(total), block256, 0, &e.a); err != nil || !e.fielded {
		return err
	}
	return e.deriveFields()
}
