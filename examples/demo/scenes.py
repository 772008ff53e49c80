"""The demo's scenes: classic Core Animation examples, built with the Python binding.

Each scene creates its layers in a fresh engine, lists the host actions it
performs at given times (the things a button or a timer would do in an app),
and may change something every frame (a scrubbing gesture). The driver
(:func:`run`) ticks the engine at fixed times, so the output is deterministic:
an action at time ``ta`` runs after ``engine.tick(ta)``, so it happens exactly
then, whatever the frame rate.
"""
from __future__ import annotations

import math
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from cadence import Animation, Engine, Layer, Path

import pictures

__all__ = ["Scene", "SCENES", "scene_by_key", "run", "Label"]

Label = Tuple[float, float, str, Tuple[int, int, int], str]   # x, y, text, rgb, anchor
Action = Tuple[float, Callable[[Engine], None]]

WHITE = (1.0, 1.0, 1.0, 1.0)


def rgba(hexstr: str, a: float = 1.0) -> Tuple[float, float, float, float]:
    h = hexstr.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, a)


class Scene:
    """A scene: layers + timed host actions. Subclasses fill in :meth:`build`."""

    key = ""
    title = ""
    detail = ""
    seconds = 4.0
    size = (480, 300)
    clear = rgba("#14161f")
    #: the time of the picture used for the docs (docs/img/demo-<key>.png)
    still_time = 2.0

    def __init__(self) -> None:
        self.labels: List[Label] = []
        self.root: Optional[Layer] = None

    def build(self, engine: Engine) -> Layer:  # pragma: no cover - abstract
        raise NotImplementedError

    def actions(self) -> List[Action]:
        return []

    def at_frame(self, engine: Engine, t: float) -> None:
        """Runs after ``engine.tick(t)``, before the render list is read."""

    def label(self, x: float, y: float, text: str, rgb=(220, 223, 230), anchor: str = "mm") -> None:
        self.labels.append((x, y, text, rgb, anchor))

    def make_root(self, engine: Engine) -> Layer:
        w, h = self.size
        root = engine.create_layer(bounds=(0, 0, w, h), position=(w / 2, h / 2), background_color=self.clear)
        root.actions_enabled = False  # the root of a "view": its own changes are immediate
        self.root = root
        return root


# ---------------------------------------------------------------------------
# 1. The spaceship on a Bézier path (keyframe path animation, rotationMode auto)
# ---------------------------------------------------------------------------

def bezier_point(p0, p1, p2, p3, t: float) -> Tuple[float, float]:
    u = 1 - t
    return (u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
            u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1])


class Spaceship(Scene):
    key = "spaceship"
    title = "Keyframe path with rotationMode auto"
    detail = "position follows one cubic Bézier (4 s); the ship turns along the tangent"
    seconds = 4.5
    still_time = 1.3
    clear = rgba("#101426")
    # the classic path (0,150) -> (300,150) via (75,0), (225,300), scaled to 480 px
    P0, P1, P2, P3 = (40.0, 150.0), (140.0, 0.0), (340.0, 300.0), (440.0, 150.0)

    def build(self, e: Engine) -> Layer:
        root = self.make_root(e)
        for i in range(60):  # a few stars
            x = (i * 97) % 480
            y = (i * 53 + (i * i) % 37) % 300
            s = 1 + (i % 3 == 0)
            root.add_sublayer(e.create_layer(bounds=(0, 0, s, s), position=(x, y),
                                             background_color=(1, 1, 1, 0.25 + 0.1 * (i % 4))))
        for i in range(61):  # the path, drawn faintly with small dots
            x, y = bezier_point(self.P0, self.P1, self.P2, self.P3, i / 60)
            root.add_sublayer(e.create_layer(bounds=(0, 0, 4, 4), position=(x, y), corner_radius=2,
                                             background_color=(0.55, 0.75, 1.0, 0.45)))
        self.label(240, 288, "Path().move_to(40, 150).cubic_to(140, 0, 340, 300, 440, 150)", (120, 150, 200))
        ship = e.create_layer(bounds=(0, 0, 64, 64), position=self.P0)
        ship.contents = pictures.SHIP
        root.add_sublayer(ship)
        self.ship = ship
        return root

    def actions(self) -> List[Action]:
        def launch(e: Engine) -> None:
            path = Path().move_to(*self.P0).cubic_to(*self.P1, *self.P2, *self.P3)
            anim = Animation.keyframe(e, "position", path=path, rotation_mode="auto", duration=4.0)
            # set the model value to the end first (no implicit animation), so nothing snaps back
            with e.transaction(disable_actions=True):
                self.ship.position = self.P3
            self.ship.add_animation(anim, "fly")
        return [(0.0, launch)]


# ---------------------------------------------------------------------------
# 2. The door: perspective, anchorPoint, transform.rotation.y; a paused, scrubbed twin
# ---------------------------------------------------------------------------

class Door(Scene):
    key = "door"
    title = "Perspective and layer time: the door"
    detail = "m34 = -1/500 on the superlayer, anchorPoint (0, 0.5), rotation.y to -π/2"
    seconds = 4.5
    still_time = 1.0
    clear = rgba("#2d3436")

    def _door(self, e: Engine, parent: Layer, hinge_x: float) -> Layer:
        frame = e.create_layer(bounds=(0, 0, 136, 262), position=(hinge_x + 64, 150),
                               background_color=rgba("#0c0d10"), border_width=4, border_color=rgba("#b2bec3"))
        parent.add_sublayer(frame)
        door = e.create_layer(bounds=(0, 0, 128, 256), position=(hinge_x, 150), anchor_point=(0, 0.5),
                              background_color=rgba("#a0522d"), border_width=3, border_color=rgba("#5d2f12"))
        parent.add_sublayer(door)
        for y in (20, 140):
            door.add_sublayer(e.create_layer(bounds=(0, 0, 88, 96), position=(64, y + 48),
                                             background_color=rgba("#c0703d"), border_width=2,
                                             border_color=rgba("#6d3a18")))
        door.add_sublayer(e.create_layer(bounds=(0, 0, 14, 14), position=(112, 128), corner_radius=7,
                                         background_color=rgba("#f6c945"), border_width=1,
                                         border_color=rgba("#8a6d1a")))
        return door

    def build(self, e: Engine) -> Layer:
        root = self.make_root(e)
        self.halves = []
        for i in range(2):
            half = e.create_layer(bounds=(0, 0, 240, 300), position=(120 + 240 * i, 150))
            half["sublayerTransform.m34"] = -1.0 / 500.0      # perspective for the sublayers
            root.add_sublayer(half)
            self.halves.append(half)
        self.door = self._door(e, self.halves[0], 56)
        self.scrub_door = self._door(e, self.halves[1], 56)
        self.label(120, 292, "repeatDuration = inf, autoreverses", (200, 205, 210))
        self.label(360, 292, "speed 0, timeOffset scrubbed", (200, 205, 210))
        return root

    def actions(self) -> List[Action]:
        def swing(e: Engine) -> None:
            anim = Animation.basic(e, "transform.rotation.y", to=-math.pi / 2, duration=2.0,
                                   repeat_duration=math.inf, autoreverses=True)
            self.door.add_animation(anim, "swing")
            # the "manual animation" idiom: freeze the layer, add a 1 s animation, move timeOffset by hand
            self.scrub_door.speed = 0.0
            manual = Animation.basic(e, "transform.rotation.y", from_=0.0, to=-math.pi / 2, duration=1.0)
            self.scrub_door.add_animation(manual, "manual")
        return [(0.0, swing)]

    def at_frame(self, e: Engine, t: float) -> None:
        # a finger dragging back and forth: timeOffset = triangle wave in [0, 0.99]
        phase = (t / 3.0) % 1.0
        self.scrub_door.timeOffset = 0.99 * (1 - abs(2 * phase - 1))


# ---------------------------------------------------------------------------
# 3. The falling petal: keyframes with keyTimes inside a group with a rotation
# ---------------------------------------------------------------------------

class Petal(Scene):
    key = "petal"
    title = "Keyframes in a group: the petal"
    detail = "4 position values, keyTimes 0, 0.5, 0.75, 1 over 8 s, + rotation.z 0 → 2π"
    seconds = 8.5
    still_time = 5.0
    clear = rgba("#dff3ff")
    VALUES = [(100.0, 36.0), (380.0, 110.0), (140.0, 180.0), (300.0, 240.0)]
    KEY_TIMES = [0.0, 0.5, 0.75, 1.0]

    def build(self, e: Engine) -> Layer:
        root = self.make_root(e)
        ground = e.create_layer(bounds=(0, 0, 480, 30), position=(240, 285), background_color=rgba("#b8e0a0"))
        root.add_sublayer(ground)
        for (x, y), kt in zip(self.VALUES, self.KEY_TIMES):
            root.add_sublayer(e.create_layer(bounds=(0, 0, 10, 10), position=(x, y), corner_radius=5,
                                             border_width=2, border_color=rgba("#6c5ce7")))
            right = x > 300
            self.label(x + (-10 if right else 10), y - 10, f"keyTime {kt:g} ({8 * kt:g} s)", (90, 80, 180),
                       "rb" if right else "lb")
        # the timeline of the 8 s with the key times
        track = e.create_layer(bounds=(0, 0, 400, 6), position=(240, 285), background_color=rgba("#ffffff", 0.7))
        root.add_sublayer(track)
        for kt in self.KEY_TIMES:
            root.add_sublayer(e.create_layer(bounds=(0, 0, 2, 14), position=(40 + 400 * kt, 285),
                                             background_color=rgba("#6c5ce7")))
        self.progress = e.create_layer(bounds=(0, 0, 0, 6), anchor_point=(0, 0.5), position=(40, 285),
                                       background_color=rgba("#6c5ce7", 0.8))
        root.add_sublayer(self.progress)
        self.petal = e.create_layer(bounds=(0, 0, 48, 28), position=self.VALUES[0])
        self.petal.contents = pictures.PETAL
        root.add_sublayer(self.petal)
        return root

    def actions(self) -> List[Action]:
        def fall(e: Engine) -> None:
            drift = Animation.keyframe(e, "position", values=self.VALUES, key_times=self.KEY_TIMES)
            spin = Animation.basic(e, "transform.rotation.z", from_=0.0, to=2 * math.pi)
            group = Animation.group(e, [drift, spin], duration=8.0)   # children take the group's duration
            with e.transaction(disable_actions=True):
                self.petal.position = self.VALUES[-1]                 # the model is where it ends
            self.petal.add_animation(group, "fall")
            bar = Animation.basic(e, "bounds.size.width", from_=0.0, to=400.0, duration=8.0,
                                  fill_mode="forwards", removed_on_completion=False)
            self.progress.add_animation(bar, "timeline")
        return [(0.0, fall)]


# ---------------------------------------------------------------------------
# 4. Implicit animations, and the snap-back problem with its fix
# ---------------------------------------------------------------------------

COLOURS = [rgba("#e17055"), rgba("#00b894"), rgba("#0984e3"), rgba("#fdcb6e"), rgba("#6c5ce7")]


class Colours(Scene):
    key = "colours"
    title = "Implicit animations and snap-back"
    detail = "changes outside a transaction animate; an explicit animation needs the model set"
    seconds = 4.5
    still_time = 2.2
    clear = rgba("#f5f6fa")

    def build(self, e: Engine) -> Layer:
        root = self.make_root(e)
        self.implicit = e.create_layer(bounds=(0, 0, 90, 90), position=(80, 110), background_color=COLOURS[0],
                                       corner_radius=10)
        self.problem = e.create_layer(bounds=(0, 0, 90, 90), position=(240, 130), background_color=COLOURS[0],
                                      corner_radius=10)
        self.fixed = e.create_layer(bounds=(0, 0, 90, 90), position=(400, 130), background_color=COLOURS[0],
                                    corner_radius=10)
        for layer in (self.implicit, self.problem, self.fixed):
            root.add_sublayer(layer)
        for x in (160, 320):
            root.add_sublayer(e.create_layer(bounds=(0, 0, 1, 250), position=(x, 140),
                                             background_color=(0, 0, 0, 0.12)))
        self.label(80, 232, "layer.backgroundColor = c", (60, 60, 70))
        self.label(80, 250, "layer.position = p", (60, 60, 70))
        self.label(80, 268, "(implicit, 0.25 s)", (120, 120, 130))
        self.label(240, 232, "add CABasicAnimation", (60, 60, 70))
        self.label(240, 250, "toValue = c (1 s)", (60, 60, 70))
        self.label(240, 268, "model unchanged: snaps back", (190, 60, 60))
        self.label(400, 232, "model = c (no action),", (60, 60, 70))
        self.label(400, 250, "then animate old -> c", (60, 60, 70))
        self.label(400, 268, "stays at c", (40, 140, 80))
        return root

    def actions(self) -> List[Action]:
        acts: List[Action] = []
        positions = [(80, 170), (80, 90), (80, 150), (80, 110)]
        for k, t in enumerate((0.5, 1.5, 2.5, 3.5)):
            c = COLOURS[(k + 1) % len(COLOURS)]
            p = positions[k]

            def implicit(e: Engine, c=c, p=p) -> None:
                self.implicit.background_color = c       # outside any transaction: implicit animation
                self.implicit.position = p

            acts.append((t, implicit))
        for k, t in enumerate((0.5, 2.5)):
            c = COLOURS[(2 * k + 2) % len(COLOURS)]

            def problem(e: Engine, c=c) -> None:
                a = Animation.basic(e, "backgroundColor", to=c, duration=1.0)
                self.problem.add_animation(a, "colour")   # the model keeps the old colour

            def fixed(e: Engine, c=c) -> None:
                old = self.fixed.background_color
                with e.transaction(disable_actions=True):
                    self.fixed.background_color = c       # the model gets the new value, no implicit action
                a = Animation.basic(e, "backgroundColor", from_=old, to=c, duration=1.0)
                self.fixed.add_animation(a, "colour")

            acts.append((t, problem))
            acts.append((t, fixed))
        return acts


# ---------------------------------------------------------------------------
# 5. The image switcher: fade and push transitions
# ---------------------------------------------------------------------------

class Switcher(Scene):
    key = "switcher"
    title = "Transitions: the image switcher"
    detail = "contents ids name the host's pictures; CATransition fade and push, 0.8 s"
    seconds = 4.5
    still_time = 0.9
    clear = rgba("#1e272e")

    def build(self, e: Engine) -> Layer:
        root = self.make_root(e)
        self.cards = []
        for x in (130, 350):
            # masksToBounds would clip a card's own shadow away: a plate behind it casts it
            root.add_sublayer(e.create_layer(bounds=(0, 0, 150, 200), position=(x, 135), corner_radius=12,
                                             background_color=(0, 0, 0, 1), shadow_opacity=0.6,
                                             shadow_radius=10, shadow_offset=(0, 6)))
            card = e.create_layer(bounds=(0, 0, 150, 200), position=(x, 135), corner_radius=12,
                                  masks_to_bounds=True, border_width=3, border_color=WHITE)
            card.contents = pictures.CARD_BASE + 1
            root.add_sublayer(card)
            self.cards.append(card)
        self.index = [1, 1]
        self.label(130, 262, "type = fade", (220, 225, 230))
        self.label(350, 262, "type = push, subtype = fromRight", (220, 225, 230))
        return root

    def actions(self) -> List[Action]:
        acts: List[Action] = []
        for t in (0.4, 1.8, 3.2):
            def switch(e: Engine) -> None:
                for i, (card, kind) in enumerate(zip(self.cards, ("fade", "push"))):
                    tr = Animation.transition(e, kind, "fromRight", duration=0.8, timing_function="easeInEaseOut")
                    card.add_animation(tr)                # the outgoing picture is frozen now
                    self.index[i] = self.index[i] % 4 + 1
                    card.contents = pictures.CARD_BASE + self.index[i]   # the incoming picture
            acts.append((t, switch))
        return acts


SCENES = [Spaceship, Door, Petal, Colours, Switcher]


def scene_by_key(key: str) -> type:
    for s in SCENES:
        if s.key == key:
            return s
    raise KeyError(f"unknown scene {key!r}; scenes: {', '.join(s.key for s in SCENES)}")


def run(scene: Scene, seconds: float, fps: float = 30.0, times: Optional[Sequence[float]] = None
        ) -> Iterator[Tuple[int, float, Engine, object]]:
    """Plays ``scene`` in a fresh engine at fixed times ``frame / fps`` for ``seconds``
    (or at the given ``times``) and yields (frame, t, engine, render list) per frame.
    The render list is a view the next frame overwrites: copy it to keep it."""
    engine = Engine()
    try:
        root = scene.build(engine)
        engine.tick(0.0)          # the layers are no longer new: later changes animate
        pending = sorted(scene.actions(), key=lambda a: a[0])
        if times is None:
            n = max(1, int(round(seconds * fps)))
            times = [f / fps for f in range(n)]
        for f, t in enumerate(times):
            while pending and pending[0][0] <= t + 1e-9:
                ta, fn = pending.pop(0)
                engine.tick(max(ta, engine.now))
                fn(engine)
            engine.tick(t)
            scene.at_frame(engine, t)
            yield f, t, engine, engine.render_list(root)
    finally:
        engine.close()
