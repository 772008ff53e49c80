"""Engine.close() against calls in flight on other threads (README "Threads").

close() marks the engine closed, waits for the calls made through the binding
that are in progress on other threads, then destroys it; calls on the closing
thread itself (close() inside a callback) do not delay it. Each scenario runs in
a child process: the failure these tests guard against is a use after free,
which would kill pytest itself.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import cadence

_PRELUDE = """
import faulthandler, sys, threading, time
faulthandler.enable()
faulthandler.dump_traceback_later(50, exit=True)   # a deadlock ends the child with a traceback
import cadence
from cadence import Animation, ClosedError, EventKind
"""


def _run(code: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(cadence.__file__).resolve().parent.parent)
    env["CADENCE_LIBRARY"] = cadence.LIBRARY_PATH
    r = subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(code)], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, f"child ended with status {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    return r.stdout


def test_close_while_another_thread_reads_and_writes_does_not_crash():
    # The audit's repro: a worker sets and reads layer values in a loop while the
    # main thread closes the engine. The worker must end with ClosedError.
    out = _run("""
        outcomes = []
        for rep in range(150):
            e = cadence.Engine()
            layer = e.create_layer(bounds=(0, 0, 10, 10))
            e.tick(0)
            started = threading.Event()

            def user():
                try:
                    for i in range(1000000):
                        if i == 10:
                            started.set()
                        layer.opacity = 0.5
                        layer.position
                        layer.presentation_layer.bounds
                    outcomes.append("finished")
                except ClosedError:
                    outcomes.append("closed")

            th = threading.Thread(target=user)
            th.start()
            started.wait()
            time.sleep(0.0005)
            e.close()
            th.join()
        print(sorted(set(outcomes)), len(outcomes))
    """)
    assert out.split("\n")[0] == "['closed'] 150"


def test_close_waits_for_a_call_in_flight_on_another_thread():
    # Thread T is inside tick(): its animation callback blocks until released. A
    # close() on the main thread must wait for that tick to return, while calls that
    # start after close() began fail with ClosedError (also inside T's callback).
    out = _run("""
        e = cadence.Engine()
        layer = e.create_layer()
        e.tick(0.0)
        in_callback, release = threading.Event(), threading.Event()
        log = []

        def blocking(ev):
            if ev.kind == EventKind.START:
                in_callback.set()
                release.wait(20)
                try:
                    layer.opacity              # close() has begun: refused
                    log.append("callback: read")
                except ClosedError:
                    log.append("callback: ClosedError")

        a = Animation.basic(e, "opacity", from_=1.0, to=0.0, duration=1.0)
        a.on_event(blocking)
        layer.add_animation(a, "fade")
        tick_error = []

        def ticker():
            try:
                e.tick(0.5)
                log.append("tick returned")
            except ClosedError as exc:
                tick_error.append(exc)
                log.append("tick raised ClosedError")

        t = threading.Thread(target=ticker)
        t.start()
        assert in_callback.wait(20)

        closer = threading.Thread(target=lambda: (e.close(), log.append("close returned")))
        closer.start()
        time.sleep(0.3)
        log.append(f"closer alive: {closer.is_alive()}, closed: {e.closed}")
        try:
            e.tick(0.6)
        except ClosedError:
            log.append("main: ClosedError")
        # a second close() on a thread with no call in flight returns once destroyed
        second = threading.Thread(target=lambda: (e.close(), log.append("second close returned")))
        second.start()
        time.sleep(0.2)
        log.append(f"second alive: {second.is_alive()}")
        release.set()
        t.join(20); closer.join(20); second.join(20)
        for line in log:
            print(line)
    """)
    lines = out.strip().split("\n")
    assert lines[:4] == ["closer alive: True, closed: True", "main: ClosedError", "second alive: True",
                         "callback: ClosedError"]
    # both close() calls return only after T's tick has left C (after the callback,
    # which caught its ClosedError: the tick itself completed)
    assert sorted(lines[4:]) == ["close returned", "second close returned", "tick returned"]


def test_close_inside_a_callback_waits_for_other_threads_only():
    # close() from the ticking thread's own callback: its own tick is in flight and
    # must not make it wait (that would never end), but a call in flight on another
    # thread is waited for: thread R is inside a commit whose completion callback
    # blocks until released. The ticking callback re-enters the engine first.
    out = _run("""
        e = cadence.Engine()
        layer = e.create_layer(opacity=0.25)
        e.tick(0.0)
        log = []
        r_inside, r_release = threading.Event(), threading.Event()

        def r_completion():
            r_inside.set()
            r_release.wait(20)
            try:
                layer.opacity
            except ClosedError:
                log.append("R: ClosedError")

        def r_thread():
            with e.transaction(completion=r_completion):
                pass
            log.append("R: commit returned")

        r = threading.Thread(target=r_thread)
        r.start()
        assert r_inside.wait(20)

        def releaser():
            time.sleep(0.3)
            log.append("releasing R")
            r_release.set()

        def on_stop(ev):
            if ev.kind == EventKind.STOP:
                log.append(f"reentrant read {layer.opacity}")
                threading.Thread(target=releaser).start()
                e.close()
                log.append(f"closed in callback: {e.closed}")

        a = Animation.basic(e, "opacity", from_=1.0, to=0.0, duration=0.1)
        a.on_event(on_stop)
        layer.add_animation(a, "fade")
        e.tick(1.0)
        log.append("tick returned")
        r.join(20)
        for line in log:
            print(line)
    """)
    lines = out.strip().split("\n")
    assert lines[:3] == ["reentrant read 0.25", "releasing R", "R: ClosedError"]
    # close() returned (in the callback) only once R's commit had left C
    assert sorted(lines[3:]) == ["R: commit returned", "closed in callback: True", "tick returned"]
    assert lines.index("closed in callback: True") < lines.index("tick returned")


def test_two_threads_closing_from_their_callbacks_do_not_deadlock():
    # Callbacks run with no engine lock held, so two threads can be inside callbacks
    # (one in tick, one in a commit) at once. Both close the engine: the first
    # waits for the other's call, the other must not wait back.
    out = _run("""
        e = cadence.Engine()
        layer = e.create_layer()
        e.tick(0.0)
        barrier = threading.Barrier(2, timeout=20)
        log = []

        def close_from_callback(who):
            barrier.wait()
            e.close()
            log.append(who)

        a = Animation.basic(e, "opacity", from_=1.0, to=0.0, duration=1.0)
        a.on_event(lambda ev: close_from_callback("tick") if ev.kind == EventKind.START else None)
        layer.add_animation(a, "fade")

        def committer():
            try:
                with e.transaction(completion=lambda: close_from_callback("commit")):
                    pass
            except ClosedError:
                pass

        def ticker():
            try:
                e.tick(0.5)
            except ClosedError:
                pass

        threads = [threading.Thread(target=committer), threading.Thread(target=ticker)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        print(sorted(log), [t.is_alive() for t in threads], e.closed)
    """)
    assert out.strip() == "['commit', 'tick'] [False, False] True"


def test_an_interrupted_close_leaves_the_engine_closed_and_a_later_close_finishes():
    # close() waiting for another thread can be interrupted (a signal handler raising,
    # KeyboardInterrupt): the engine stays closed to new calls and the next close()
    # destroys it instead of waiting for the interrupted one forever.
    out = _run("""
        import signal

        e = cadence.Engine()
        layer = e.create_layer()
        e.tick(0.0)
        inside, release = threading.Event(), threading.Event()

        def blocking(ev):
            if ev.kind == EventKind.START:
                inside.set()
                release.wait(20)

        a = Animation.basic(e, "opacity", to=0.0, duration=1.0)
        a.on_event(blocking)
        layer.add_animation(a, "fade")
        t = threading.Thread(target=lambda: e.tick(0.5))
        t.start()
        assert inside.wait(20)

        class Interrupted(Exception):
            pass

        def on_alarm(signum, frame):
            raise Interrupted

        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        try:
            e.close()
            print("close returned")
        except Interrupted:
            print("close interrupted")
        try:
            layer.opacity
        except ClosedError:
            print("closed to new calls")
        release.set()
        e.close()
        t.join(20)
        print("closed", e.closed, layer.alive, t.is_alive(), "destroyed", e._ptr is None)
    """)
    assert out.strip().split("\n") == ["close interrupted", "closed to new calls",
                                        "closed True False False destroyed True"]
