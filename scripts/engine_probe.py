"""Set option values on fresh attachments in TripleA 2.x's JVM many at a time (scripts/derive_engine_tables.py).

A probe makes a fresh attachment of one class on one thing of one game (``XmlGameElementMapper.newAttachment``),
sets one value of one option as the parser does (``MutableProperty.setValue``) and says where the setter refused it,
if it did: the innermost cause's class and the engine's frames it was thrown through (class and line), the same for
every value one check of the setter refuses, whatever the value.

Each probe asked through JPype one by one costs a Python exception per refusal and a call per stack frame; here
the probe is one ``java.lang.invoke`` method handle, composed from the engine's and the JDK's public methods (no
compiler: only the Java runtime), and a batch of values is one counted loop of it inside the JVM. The engine's code
that runs is the same as one call at a time: only where the loop runs changes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

#: What separates the answers of a batch (no class name or frame holds it).
_BETWEEN = "\u0001"
#: A frame of ``Arrays.toString(stackTrace)``: ``module/class.method(File.java:line)``.
_FRAME = re.compile(r"(?:[\w.]+/)?([\w.$]+)\.[^.(]+\((?:[^():]*?)(?::(\d+))?\)")


def _handles():
    from jpype import JClass, JString

    handles = JClass("java.lang.invoke.MethodHandles")
    method_type = JClass("java.lang.invoke.MethodType").methodType
    lookup = handles.publicLookup()

    def cls(name: str):
        return JClass(name).class_

    string, obj, optional, throwable = cls("java.lang.String"), cls("java.lang.Object"), cls("java.util.Optional"), cls("java.lang.Throwable")
    void, boolean, integer = JClass("java.lang.Void").TYPE, JClass("java.lang.Boolean").TYPE, JClass("java.lang.Integer").TYPE
    objects, strings = cls("[Ljava.lang.Object;"), cls("[Ljava.lang.String;")
    get = lookup.findVirtual(optional, "get", method_type(obj))
    concat = lookup.findVirtual(string, "concat", method_type(string, string))
    # where a Throwable was thrown: "class@[frames]" of its innermost cause
    root = lookup.findStatic(cls("com.google.common.base.Throwables"), "getRootCause", method_type(throwable, throwable))
    class_name = handles.filterReturnValue(
        lookup.findVirtual(obj, "getClass", method_type(cls("java.lang.Class"))).asType(method_type(cls("java.lang.Class"), throwable)),
        lookup.findVirtual(cls("java.lang.Class"), "getName", method_type(string)),
    )
    frames = handles.filterReturnValue(
        lookup.findVirtual(throwable, "getStackTrace", method_type(cls("[Ljava.lang.StackTraceElement;"))).asType(method_type(objects, throwable)),
        lookup.findStatic(cls("java.util.Arrays"), "toString", method_type(string, objects)),
    )
    where = handles.filterArguments(concat, 0, class_name, handles.filterReturnValue(frames, handles.insertArguments(concat, 0, JString("@"))))
    where = handles.filterArguments(handles.permuteArguments(where, method_type(string, throwable), 0, 0), 0, root)
    is_null = lookup.findStatic(cls("java.util.Objects"), "isNull", method_type(boolean, obj)).asType(method_type(boolean, throwable))
    said = handles.guardWithTest(is_null, handles.dropArguments(handles.constant(string, None), 0, throwable), where)
    return handles, method_type, lookup, cls, (string, obj, optional, void, integer, strings), get, said


class Prober:
    """Refusals of values of options of ``java_class`` attachments on ``attached_to`` in ``data`` (a GameData):
    ``prober(option, value)`` one (cached), ``prober.many(option, values)`` a batch in one call into the JVM."""

    def __init__(self, mapper, java_class: str, attached_to, data) -> None:
        from jpype import JClass, JString

        handles, method_type, lookup, cls, types, get, said = _handles()
        string, obj, optional, void, integer, strings = types
        made = lookup.findVirtual(
            cls("games.strategy.engine.data.gameparser.XmlGameElementMapper"),
            "newAttachment",
            method_type(optional, string, string, cls("games.strategy.engine.data.Attachable"), cls("games.strategy.engine.data.GameData")),
        ).bindTo(mapper)
        made = handles.filterReturnValue(handles.insertArguments(made, 0, JString(java_class), JString("probe"), attached_to, data), get)
        prop = lookup.findVirtual(cls("games.strategy.engine.data.IAttachment"), "getPropertyOrEmpty", method_type(optional, string))
        prop = handles.collectArguments(handles.filterReturnValue(prop.asType(method_type(optional, obj, string)), get), 0, made)  # (option)
        set_value = lookup.findVirtual(cls("games.strategy.engine.data.MutableProperty"), "setValue", method_type(void, obj))
        setting = handles.collectArguments(set_value.asType(method_type(void, obj, obj)), 0, prop)  # (option, value)void
        setting = handles.filterReturnValue(setting, handles.constant(cls("java.lang.Throwable"), None))
        caught = handles.dropArguments(handles.identity(cls("java.lang.Throwable")), 1, string, obj)
        probe = handles.filterReturnValue(handles.catchException(setting, cls("java.lang.Throwable"), caught), said)  # (option, value)String
        # out[i] = probe(option, values[i]) for each i: a counted loop over (values, option, out)
        store = handles.collectArguments(handles.arrayElementSetter(strings), 2, probe)  # (out, i, option, value)
        store = handles.collectArguments(store, 3, handles.arrayElementGetter(strings).asType(method_type(obj, strings, integer)))
        body = handles.permuteArguments(store, method_type(void, integer, strings, string, strings), 3, 0, 2, 1, 0)
        length = handles.dropArguments(handles.arrayLength(strings), 1, string, strings)
        self._loop = handles.countedLoop(length, None, body)
        self._strings = JClass("java.lang.String")
        self._as_list = JClass("java.util.Arrays").asList
        self._cache: dict[tuple[str, str], str | None] = {}

    def __call__(self, option: str, value: str) -> str | None:
        if (option, value) not in self._cache:
            self.many(option, [value])
        return self._cache[(option, value)]

    def many(self, option: str, values: Iterable[str]) -> None:
        """Probe each of ``values`` not probed yet, in one call into the JVM."""
        from jpype import JArray

        cache = self._cache
        todo = list(dict.fromkeys(v for v in values if (option, v) not in cache))
        if not todo:
            return
        given, out = JArray(self._strings)(todo), JArray(self._strings)(len(todo))
        self._loop.invokeWithArguments(self._as_list([given, option, out]))
        # one string of all the answers, as bytes: one copy out of the JVM instead of one conversion an answer
        answers = bytes(memoryview(self._strings.join(_BETWEEN, out).getBytes("UTF-8"))).decode("utf-8").split(_BETWEEN)
        for value, said in zip(todo, answers, strict=True):
            self._cache[(option, value)] = None if said == "null" else _engine_frames(said)  # a refusal is class@[...]


@functools.cache
def _engine_frames(said: str) -> str:
    """``class@[frames]`` as ``class@engine-class:line|...``: only the engine's own frames (``games.strategy.``)."""
    kind, _, frames = said.partition("@")
    kept = [f"{m.group(1)}:{m.group(2) or -1}" for m in _FRAME.finditer(frames) if m.group(1).startswith("games.strategy.")]
    return f"{kind}@{'|'.join(kept)}"
