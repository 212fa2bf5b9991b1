# syspython.sh: sourced by the test and bench drivers.  'python3' in a
# case's cmd, a #!/usr/bin/env python3 script or a benchmark is Debian's
# /usr/bin/python3 (scripts/install-deps.sh installs it), never an
# interpreter a version manager put first on PATH: its shims can print
# errors of their own under load.  syspython DIR links DIR/python3 to it
# and puts DIR first on PATH.
syspython() {
	mkdir -p "$1" && ln -sf /usr/bin/python3 "$1/python3" &&
	    PATH="$1:$PATH" && export PATH
}
