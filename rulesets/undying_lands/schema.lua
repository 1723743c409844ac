-- The Undying Lands schema. A Tactical Unit (TU) is a unit; each vignette (base) is one of its
-- elements, with its own Integrity Points (IP) and markers. The TU's classes are its
-- vignettes' classes (2; the roster gives one composition per TU).
local S = { unit = {}, element = {}, command = {}, side = {}, markers = {} }
local u, e, m = S.unit, S.element, S.markers

u.type = { type = "choice", values = { "foot", "mounted", "leviathan", "behemoth" }, default = "foot",
  doc = "general class: Foot, Mounted, Leviathan or Behemoth (2.1)" }
u.order = { type = "choice", values = { "close", "loose", "open" }, default = "close",
  doc = "order class, fixed for the battle (2.2)" }
u.discipline = { type = "choice", values = { "regular", "irregular" }, default = "regular",
  doc = "army class: Regular or Irregular (2.3); Behemoths are always Irregular" }
u.weapon = { type = "choice", values = { "sa", "lance", "2hpw", "2hw", "m2hw", "hfs", "pike", "spear" },
  default = "sa", doc = "close combat weapon class besides SA (2.4); sa: side arms or natural weapons only" }
u.missile = { type = "choice", values = { "none", "ssw", "srw", "lrw" }, default = "none",
  doc = "missile weapon class (2.4)" }
u.sbw = { type = "flag", default = false, doc = "has a special breath weapon: once per game (2.4, 18)" }
u.morale_class = { type = "choice", values = { "V", "IV", "III", "II", "I" }, default = "III",
  doc = "morale class V to I: +10 to -10 IP (2.5)" }
u.proficiency = { type = "choice", values = { "militia", "drilled", "skilled" }, default = "drilled",
  doc = "weapon proficiency: sets the shooting and melee dice (2.6)" }
u.defence = { type = "choice", values = { "A", "B", "C", "D", "E", "F" }, default = "A",
  doc = "defence class A (no armour) to F (enhanced) (2.7)" }
u.shield = { type = "choice", values = { "none", "sh", "lsh" }, default = "none",
  doc = "shields: none, sh (shields) or lsh (large shields) (2.7)" }
u.mount_armour = { type = "choice", values = { "none", "partial", "full" }, default = "none",
  doc = "Mounted only: partial (+2 IP) or full (+4 IP) animal armour (2.7)" }
u.physique = { type = "choice", values = { "low", "average", "high", "extreme" }, default = "average",
  doc = "physique (3)" }
u.size = { type = "choice", values = { "v_small", "small", "average", "large", "huge" }, default = "average",
  doc = "size, judged against the general class (3, 28)" }
u.fast = { type = "flag", default = false, doc = "Fast: extra move (5); Loose or Open order only" }
u.vignettes = { type = "int", min = 1, max = 40, default = 2,
  doc = "vignettes `muster` makes when the TU has none listed (2.3)" }
u.ip = { type = "int", min = -2000, max = 2000, default = 0, doc = "IP now: the sum of its vignettes' (3)" }
u.ip_start = { type = "int", min = 0, max = 2000, default = 0, doc = "starting IP: the sum of its vignettes' (3)" }
u.rally_left = { type = "int", min = -1, max = 10, default = -1, doc = "phases of rally still to go (24); -1: not rallying" }
u.follow_up = { type = "int", min = 0, max = 10, default = 0, doc = "turns an irregular TU must follow up a repulsed enemy (23.3)" }

e.ip = { type = "int", min = -200, max = 200, default = 0, doc = "Integrity Points now (3)" }
e.ip_start = { type = "int", min = 0, max = 200, default = 0, doc = "Integrity Points as built (3)" }
e.ip_phase = { type = "int", min = -200, max = 200, default = 0, doc = "IP at the start of this phase (24; UL-D16)" }
e.phase_key = { type = "text", default = "", doc = "the phase ip_phase belongs to" }

m.disordered = "disordered (24)"
m.repulsed = "previously repulsed: +5 to integrity tests (23.2)"
m.charging = { doc = "charged or counter-charged into contact this phase (16, 17, 19)", expires = "phase" }
m.fanatic = { doc = "fanatic charging this phase (16, 19)", expires = "phase" }
m.first_contact = { doc = "came into contact this phase: the first-contact round (19)", expires = "phase" }
m.in_melee = "in melee (19)"
m.march = "in march formation: cannot fight (20.i)"
m.sbw_used = "has used its special breath weapon (18: once per game)"
m.mustered = "IP built by `muster` (3)"

require("fld_common.schema").add(S, { cinc = "General",
  rules = { commanders = "6, 7", sc = "11", sc_own = "12", orders = "10", ti = "13", seq = "15", tu = "14", win = "26" } })

S.status = { attrs = { "type", "order", "discipline" }, strength = "ip", max = "ip_start", element_strength = "ip",
  -- what a large game's `status` lists first: disordered, repulsed, in melee, and TUs that
  -- have lost IP
  attention = { markers = { "disordered", "repulsed", "in_melee" }, damaged = true } }

return S
