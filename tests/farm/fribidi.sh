# GNU FriBidi: Meson; meson test runs the Unicode conformance suites.
pkg=fribidi system=meson lang=C
meson_args="-Ddocs=false"
