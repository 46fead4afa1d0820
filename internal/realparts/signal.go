package realparts

import "syscall"

// termSignal stops a daemon: each of them saves its state and exits on it.
const termSignal = syscall.SIGTERM
