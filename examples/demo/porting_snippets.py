"""The Python snippets of docs/porting-guide.md, as runnable code.

Every block between ``# [start:NAME]`` and ``# [end:NAME]`` appears verbatim
(dedented) as a Python code block of the guide; examples/demo/test_snippets.py
checks that and runs every ``snippet_*`` function. The snippets assume what the
guide's "Setup" section shows: ``engine`` (a :class:`cadence.Engine` ticked once
at t = 0) and ``layer`` (a 100 x 100 layer at (50, 50) in it).

    python3 examples/demo/porting_snippets.py      # runs them all
"""
from __future__ import annotations

import math
import os

if not os.environ.get("CADENCE_LIBRARY"):
    _built = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                          ".build", "release", "libcadence.so")
    if os.path.exists(_built):
        os.environ["CADENCE_LIBRARY"] = _built

import cadence  # noqa: E402
from cadence import Animation, Path, Transform3D  # noqa: E402


def setup():
    # [start:setup]
    import math

    import cadence
    from cadence import Animation, Path, Transform3D

    engine = cadence.Engine()
    layer = engine.create_layer(bounds=(0, 0, 100, 100), position=(50, 50),
                                background_color=(1, 0, 0, 1))
    engine.tick(0.0)   # from now on the layer is not "new": changes animate implicitly
    # [end:setup]
    return engine, layer


def snippet_render_loop(engine, layer):
    frames = 0
    # [start:render_loop]
    def draw_frame(now):
        engine.tick(now)                    # Core Animation does this for you; here the host does
        items = engine.render_list(layer)   # numpy structured array: world, bounds, colours ...
        for item in items:                  # (without numpy: a list of structures, item.world)
            world = item["world"].reshape(4, 4)   # row vectors: [x y 0 1] @ world, then divide by w
            ...
        return len(items)
    # [end:render_loop]
    for k in range(3):
        frames += draw_frame(0.1 * (k + 1))
    assert frames == 3


def snippet_properties(engine, layer):
    # [start:properties]
    layer.bounds = (0, 0, 200, 120)           # CGRect -> (x, y, w, h)
    layer.anchor_point = (0, 0.5)             # or layer.anchorPoint
    layer.background_color = (0.2, 0.4, 1, 1) # CGColor -> straight RGBA in 0..1
    layer.corner_radius = 12
    layer.masks_to_bounds = True
    layer["position.x"] = 80                  # any key path, like setValue(_:forKeyPath:)
    layer.contents = 42                       # CGImage -> your own 64-bit picture id
    print(layer.frame)                        # Rect(x=80.0, y=-10.0, width=200.0, height=120.0)
    # [end:properties]
    assert layer.frame == (80.0, -10.0, 200.0, 120.0)
    assert layer.presentation_layer.position != layer.position   # the changes above animate implicitly
    # the contents change runs the default action: a 0.25 s fade transition
    assert layer.animation_keys()[-1] == "transition"
    engine.tick(0.1)
    flags = [int(f) for f in engine.render_list(layer)["flags"]]
    assert any(f & cadence.ItemFlag.TRANSITION_CLIP for f in flags)
    engine.tick(0.3)
    assert "transition" not in layer.animation_keys()


def snippet_tree(engine, layer):
    # [start:tree]
    child = engine.create_layer(bounds=(0, 0, 20, 20), position=(10, 10))
    layer.add_sublayer(child)                 # addSublayer(_:)
    badge = engine.create_layer()
    layer.insert_sublayer(badge, 0)           # insertSublayer(_:at:)
    assert layer.sublayers == [badge, child] and child.superlayer == layer
    child.remove_from_superlayer()            # removeFromSuperlayer()
    # [end:tree]
    assert child.superlayer is None


def snippet_perspective(engine, layer):
    # [start:perspective]
    container = engine.create_layer(bounds=(0, 0, 300, 300), position=(150, 150))
    container["sublayerTransform.m34"] = -1.0 / 500        # var t = CATransform3DIdentity; t.m34 = -1/500
    door = engine.create_layer(bounds=(0, 0, 128, 256), position=(86, 150), anchor_point=(0, 0.5))
    container.add_sublayer(door)
    door.transform = Transform3D.rotation(-math.pi / 4, 0, 1, 0)   # CATransform3DMakeRotation(-π/4, 0, 1, 0)
    door["transform.rotation.y"] = -math.pi / 4                    # the same through the virtual key path
    # [end:perspective]
    engine.tick(engine.now + 1.0)
    item = engine.render_list(container)[1]
    assert abs(item["world"][3]) > 1e-4            # the door's world matrix has perspective (m14 != 0)


def snippet_basic(engine, layer):
    # [start:basic]
    move = Animation.basic(engine, "position", from_=(50, 50), to=(250, 50), duration=2.0,
                           timing_function="easeInEaseOut")
    layer.add_animation(move, "move")         # layer.add(move, forKey: "move")
    engine.tick(1.0)
    print(layer.presentation_layer.position)  # Point(x=150.00000000000003, y=50.0): halfway
    print(layer.position)                     # Point(x=50.0, y=50.0): the model did not change
    # [end:basic]
    x, y = layer.presentation_layer.position
    assert abs(x - 150.0) < 1e-9 and y == 50.0
    assert layer.position == (50.0, 50.0)


def snippet_snap_back(engine, layer):
    # [start:snap_back]
    # the classic fix for "the layer jumps back when the animation ends":
    old = layer.opacity
    with engine.transaction(disable_actions=True):   # CATransaction.setDisableActions(true)
        layer.opacity = 0.0                          # 1. set the model value, no implicit animation
    fade = Animation.basic(engine, "opacity", from_=old, to=0.0, duration=0.5)
    layer.add_animation(fade, "fade")                # 2. animate from the old value
    # instead of fill_mode="forwards", removed_on_completion=False, which leaves the model at 1
    # [end:snap_back]
    engine.tick(engine.now + 1.0)
    assert layer.presentation("opacity") == 0.0 and layer.animation_count == 0


def snippet_fill(engine, layer):
    # [start:fill]
    hold = Animation.basic(engine, "opacity", to=0.2, duration=0.5,
                           fill_mode="forwards", removed_on_completion=False)
    layer.add_animation(hold, "dim")
    engine.tick(2.0)
    print(layer.presentation("opacity"), layer.opacity)   # 0.2 (shown) but the model is still 1.0
    # [end:fill]
    assert abs(layer.presentation("opacity") - 0.2) < 1e-12 and layer.opacity == 1.0


def snippet_by(engine, layer):
    # [start:by]
    nudge = Animation.basic(engine, "position.x", by=30, duration=0.5)   # byValue: underlying -> underlying + 30
    layer.add_animation(nudge)                # key None: a generated, unique key
    spin = Animation.basic(engine, "transform.rotation.z", from_=0, to=2 * math.pi, duration=1,
                           repeat_count=math.inf)                       # HUGE_VALF / .infinity
    layer.add_animation(spin, "spin")
    # [end:by]
    engine.tick(0.25)
    assert abs(layer.presentation("position.x") - 65.0) < 1e-9


def snippet_keyframe(engine, layer):
    # [start:keyframe]
    shake = Animation.keyframe(engine, "position.x", values=[0, 10, -10, 10, 0],
                               key_times=[0, 0.25, 0.5, 0.75, 1], duration=0.4, additive=True)
    layer.add_animation(shake, "shake")      # additive: offsets added to the model position
    # [end:keyframe]
    engine.tick(0.1)
    assert abs(layer.presentation("position.x") - 60.0) < 1e-9


def snippet_keyframe_path(engine, layer):
    # [start:keyframe_path]
    path = Path().move_to(0, 150).cubic_to(75, 0, 225, 300, 300, 150)   # UIBezierPath / CGPath
    fly = Animation.keyframe(engine, "position", path=path, duration=4.0,
                             rotation_mode="auto",            # kCAAnimationRotateAuto
                             calculation_mode="paced")        # kCAAnimationPaced
    layer.add_animation(fly, "fly")
    # [end:keyframe_path]
    engine.tick(2.0)
    x, y = layer.presentation_layer.position
    assert abs(x - 150) < 1e-6 and abs(y - 150) < 1e-6     # halfway along a symmetric curve


def snippet_keyframe_modes(engine, layer):
    # [start:keyframe_modes]
    blink = Animation.keyframe(engine, "opacity", values=[1, 0, 1], calculation_mode="discrete",
                               key_times=[0, 0.5, 0.75, 1], duration=1)      # n + 1 key times
    smooth = Animation.keyframe(engine, "position", values=[(0, 0), (100, 40), (200, 0)],
                                calculation_mode="cubic",
                                tcb={"tension": [0, 0.5, 0], "continuity": None, "bias": None})
    ease = Animation.keyframe(engine, "position.y", values=[0, 100, 50],
                              timing_functions=["easeIn", (0.25, 0.1, 0.25, 1)])  # one per segment
    layer.add_animation(blink, "blink")
    # [end:keyframe_modes]
    engine.tick(0.6)
    assert layer.presentation("opacity") == 0.0
    for a in (smooth, ease):
        a.close()


def snippet_spring(engine, layer):
    # [start:spring]
    bounce = Animation.spring(engine, "position.y", from_=50, to=150, mass=1, stiffness=100,
                              damping=10, initial_velocity=0)   # duration = settling duration
    print(round(bounce.settling_duration, 3))                   # 1.473
    layer.add_animation(bounce, "bounce")
    pop = Animation.spring_perceptual(engine, "transform.scale", duration=0.5, bounce=0.3,
                                      from_=0.5, to=1.0)        # CASpringAnimation(perceptualDuration:bounce:)
    ui = Animation.spring_uikit(engine, "position.x", duration=0.6, damping_ratio=0.7,
                                to=300)                         # settles exactly at 0.6 s
    # [end:spring]
    assert abs(bounce.settling_duration - 1.473) < 1e-3
    assert abs(ui.settling_duration - 0.6) < 1e-9
    pop.close()
    ui.close()


def snippet_group(engine, layer):
    # [start:group]
    drift = Animation.keyframe(engine, "position", values=[(0, 0), (200, 80), (60, 160), (160, 240)],
                               key_times=[0, 0.5, 0.75, 1])
    spin = Animation.basic(engine, "transform.rotation.z", from_=0, to=2 * math.pi)
    fall = Animation.group(engine, [drift, spin], duration=8.0)   # children take the group's duration
    layer.add_animation(fall, "fall")
    # [end:group]
    engine.tick(4.0)
    assert layer.presentation_layer.position == (200.0, 80.0)
    assert abs(layer.presentation("transform.rotation.z") - math.pi) < 1e-9


def snippet_transition(engine, layer):
    # [start:transition]
    push = Animation.transition(engine, "push", "fromRight", duration=0.3)
    layer.add_animation(push)        # key "transition"; the current picture is frozen now
    layer.contents = 2               # ... and the changed layer is the incoming picture
    # [end:transition]
    engine.tick(0.15)
    flags = [int(f) for f in engine.render_list(layer)["flags"]]
    assert any(f & cadence.ItemFlag.TRANSITION_CLIP for f in flags)
    assert layer.animation_keys() == ["transition"]


def snippet_transaction(engine, layer):
    # [start:transaction]
    done = []
    with engine.transaction(duration=1.0, timing_function="easeIn",
                            completion=lambda: done.append("moved")):   # begin ... commit
        layer.position = (200, 50)            # implicit animation: 1 s, easeIn
        layer.opacity = 0.5
    with engine.transaction(disable_actions=True):
        layer.background_color = (0, 1, 0, 1)   # takes effect at once
    # [end:transaction]
    engine.tick(0.5)
    assert 50 < layer.presentation("position.x") < 200
    engine.tick(1.0)
    assert done == ["moved"]


def snippet_actions(engine, layer):
    # [start:actions]
    slow = Animation.basic(engine, "opacity", duration=2.0,      # neither from nor to: the change
                           timing_function="linear")
    layer.set_action("opacity", slow)        # layer.actions = ["opacity": slow]
    layer.set_action("position", None)       # ["position": NSNull()]: no implicit animation
    layer.opacity = 0.0                      # animates over 2 s
    layer.position = (10, 10)                # jumps
    layer.clear_action("position")           # back to the default action
    layer.actions_enabled = False            # every change immediate, also in animation blocks
    # [end:actions]
    engine.tick(1.0)
    assert abs(layer.presentation("opacity") - 0.5) < 1e-9
    assert layer.presentation_layer.position == (10.0, 10.0)


def snippet_time(engine, layer):
    # [start:time]
    now = engine.now                                   # the time of the last tick (CACurrentMediaTime())
    local = layer.convert_time_from(now)               # layer.convertTime(CACurrentMediaTime(), from: nil)
    later = Animation.basic(engine, "opacity", to=0.0, duration=1,
                            begin_time=local + 2.0,    # beginTime = convertTime(...) + 2: a 2 s delay
                            fill_mode="backwards")
    layer.add_animation(later, "later")
    # [end:time]
    engine.tick(1.0)
    assert layer.presentation("opacity") == 1.0
    engine.tick(2.5)
    assert abs(layer.presentation("opacity") - 0.5) < 1e-9


def snippet_pause(engine, layer):
    layer.add_animation(Animation.basic(engine, "position.x", from_=0, to=100, duration=4), "move")
    engine.tick(1.0)
    # [start:pause]
    # pause (speed 0 freezes the layer's local time at timeOffset)
    paused_time = layer.convert_time_from(engine.now)
    layer.speed = 0
    layer.timeOffset = paused_time
    # resume
    paused_time = layer.timeOffset
    layer.speed = 1
    layer.timeOffset = 0
    layer.beginTime = 0
    layer.beginTime = layer.convert_time_from(engine.now) - paused_time
    # the same two idioms: layer.pause() and layer.resume()
    # [end:pause]
    engine.tick(2.0)
    assert abs(layer.presentation("position.x") - 50.0) < 1e-9


def snippet_scrub(engine, layer):
    # [start:scrub]
    layer.speed = 0                                   # a manual animation, driven by a gesture
    turn = Animation.basic(engine, "transform.rotation.y", from_=0, to=-math.pi / 2, duration=1)
    layer.add_animation(turn, "door")
    layer.timeOffset = 0.25                           # e.g. from the pan gesture's translation
    engine.tick(engine.now + 0.016)
    print(layer.presentation("transform.rotation.y"))  # -0.3927: -π/8
    # [end:scrub]
    assert abs(layer.presentation("transform.rotation.y") + math.pi / 8) < 1e-9


def snippet_events(engine, layer):
    # [start:events]
    log = []
    move = Animation.basic(engine, "position.x", to=300, duration=0.5, tag=7)   # tag: like setValue(_:forKey:)

    @move.on_event                                  # animationDidStart / animationDidStop(_:finished:)
    def moved(event):
        log.append((event.kind.name, event.key, event.tag, event.finished))

    layer.add_animation(move, "move")               # set the callback before adding: adding copies
    engine.tick(1.0)
    print(log)   # [('START', 'move', 7, False), ('STOP', 'move', 7, True)]
    for event in engine.poll_events():              # the same events, polled instead
        print(event.kind.name, event.time)
    # [end:events]
    assert log == [("START", "move", 7, False), ("STOP", "move", 7, True)]


def snippet_presentation(engine, layer):
    layer.add_animation(Animation.basic(engine, "position", to=(250, 50), duration=1), "go")
    engine.tick(0.5)
    # [start:presentation]
    shown = layer.presentation_layer          # layer.presentation()
    print(shown.position, shown.opacity)      # what is on screen at the last tick
    x, y = layer.presentation("position")     # any key path
    # hit-test against what the user sees, not the model (None when nothing is hit):
    hit = layer.hit_test((160, 50), presentation=True)
    # [end:presentation]
    assert hit == layer and x == 150.0
    assert layer.hit_test((160, 50)) is None          # the model is at (250, 50) already


def snippet_uiview_animate(engine, layer):
    # [start:uiview_animate]
    # UIView.animate(withDuration: 1, delay: 0.5, options: [.curveEaseInOut, .autoreverse, .repeat])
    with engine.animate(duration=1.0, delay=0.5, curve="easeInOut", autoreverse=True, repeat=True):
        layer.position = (200, 50)
    # usingSpringWithDamping: 0.5, initialSpringVelocity: 0
    finished = []
    with engine.animate(duration=0.8, spring_damping=0.5, initial_velocity=0,
                        completion=lambda: finished.append(True)):
        layer.opacity = 0.3
    # [end:uiview_animate]
    engine.tick(0.25)
    assert layer.presentation_layer.position == (50.0, 50.0)   # still in the delay
    engine.tick(1.0)
    assert finished == [True]


def snippet_keyframes_block(engine, layer):
    # [start:keyframes_block]
    # UIView.animateKeyframes(withDuration: 2, ...) { UIView.addKeyframe(withRelativeStartTime: ...) }
    with engine.animate(duration=2.0, curve="linear"):
        with engine.keyframe(0.0, 0.5):
            layer.position = (150, 50)
        with engine.keyframe(0.5, 0.5):
            layer.position = (150, 150)
    # [end:keyframes_block]
    engine.tick(0.5)
    assert layer.presentation_layer.position == (100.0, 50.0)
    engine.tick(1.5)
    assert layer.presentation_layer.position == (150.0, 100.0)


SNIPPETS = [f for name, f in sorted(globals().items()) if name.startswith("snippet_")]


def run_all(verbose: bool = False) -> int:
    for fn in SNIPPETS:
        engine, layer = setup()
        try:
            fn(engine, layer)
        finally:
            engine.close()
        if verbose:
            print("ok", fn.__name__)
    return len(SNIPPETS)


if __name__ == "__main__":
    print(f"{run_all(verbose=True)} snippets ran")
