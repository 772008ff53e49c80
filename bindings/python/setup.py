"""Build hook: a wheel that carries libcadence is tagged for the platform.

All metadata is in pyproject.toml. When cadence/libcadence.so (or .dylib/.dll)
exists at build time it is packaged (package-data), and the wheel must then not
claim to be pure Python: this marks it ``py3-none-<platform>``.
"""
import atexit
import os
import shutil
import tempfile

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = [n for n in ("libcadence.so", "libcadence.dylib", "cadence.dll")
           if os.path.exists(os.path.join(HERE, "cadence", n))]

cmdclass = {}
if BUNDLED:
    try:
        from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
    except ImportError:  # setuptools < 70
        try:
            from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
        except ImportError:
            _bdist_wheel = None
    if _bdist_wheel is not None:
        class bdist_wheel(_bdist_wheel):  # noqa: N801 - setuptools command name
            def get_tag(self):
                # The files stay at the wheel's root (pure Python + a data file);
                # only the tag names the platform the bundled library was built for.
                pure, self.root_is_pure = self.root_is_pure, False
                try:
                    _, _, plat = super().get_tag()
                finally:
                    self.root_is_pure = pure
                return "py3", "none", plat

        cmdclass["bdist_wheel"] = bdist_wheel

# Build in a fresh directory outside the checkout: nothing is written into
# bindings/python (a read-only or shared checkout installs), and no earlier
# build's files (a library copied in before and since removed) are packaged
# again from a stale build/.
SCRATCH = tempfile.mkdtemp(prefix="cadence-build-")
atexit.register(shutil.rmtree, SCRATCH, True)
setup(cmdclass=cmdclass,
      options={"build": {"build_base": os.path.join(SCRATCH, "build")},
               "egg_info": {"egg_base": SCRATCH}})
