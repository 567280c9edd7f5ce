"""Import-time stand-ins for packages ClusterFuzz's engine code imports but
the fz client check never uses (cloud services, generated protos): every
name in them is a permissive class."""
import importlib.abc, importlib.machinery, sys, types

STUB = set()


class _Meta(type):
    def __getattr__(cls, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        return _make(name)

    def __call__(cls, *a, **k):
        if len(a) == 1 and callable(a[0]) and not k:
            return a[0]  # used as a decorator: keep the function
        return cls

    def __getitem__(cls, k):
        return cls

    def __iter__(cls):
        return iter(())

    def __bool__(cls):
        return False

    def __len__(cls):
        return 0


def _make(name):
    return _Meta(str(name), (), {})


class _Module(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        v = _make(name)
        setattr(self, name, v)
        return v


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if any(name == t or name.startswith(t + '.') for t in STUB):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _Module(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


_finder = _Finder()


def install(names, always=()):
    """Stands in for each of names that is not installed, and for always."""
    import importlib.util
    for n in names:
        try:
            if importlib.util.find_spec(n) is None:
                STUB.add(n)
        except (ImportError, ValueError):
            STUB.add(n.split('.')[0])  # its package is missing: stand in for that
    STUB.update(always)
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
