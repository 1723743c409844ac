---@meta
-- Definitions of the API umpire gives rule scripts, for Lua editors (lua-language-server reads
-- `---@` annotations; the `.luarc.json` at the top of the repository points it here). This file
-- is never run: umpire provides these. What each does is explained in rulesets/README.md.

---A unit, element, side or command handle: reads the game when asked, changes it with a reason.
---Attributes read as fields (`u.sp`); unknown names are errors.
---@class Handle
---@field id string
---@field name string
---@field kind "unit"|"element"|"side"|"command"
---@field side string the side's id (units and elements)
---@field command string the command's id (units and elements)
---@field unit string the unit's id (elements)
---@field [string] any an attribute of the schema
local Handle = {}
---@param attr string
---@return any
function Handle:get(attr) end
---@param attr string
---@param value any
---@param reason string
function Handle:set(attr, value, reason) end
---@param attr string
---@param by number
---@param reason string
function Handle:add(attr, by, reason) end
---@param marker string
---@return boolean
function Handle:has(marker) end
---@return string[]
function Handle:markers() end
---@param marker string
---@param reason string
---@param expiry? string `"end of round"`, `"own turn"`…
function Handle:mark(marker, reason, expiry) end
---@param marker string
---@param reason string
function Handle:unmark(marker, reason) end
---A unit's elements, in order; the filter takes selector terms: `"hp>0 unmarked:fallen"`.
---@param filter? string
---@return Handle[]
function Handle:elements(filter) end
---@param spec {id: string, name?: string, attrs?: table<string, any>, reason: string}
---@return Handle
function Handle:add_element(spec) end
---@param to string|Handle a command (for a unit) or a unit (for an element)
---@param reason string
function Handle:move_to(to, reason) end
---@param reason string
function Handle:remove(reason) end

---One die of a roll.
---@class Die
---@field value integer
---@field kept boolean
---@field success boolean
---@field failure boolean
---@field exploded boolean
---@field extra boolean added by an explosion
---@field rerolled boolean
---@field clamped boolean
---@field compounded boolean
---@field critical? "success"|"failure"

---A roll: still the list of kept dice (`r[1]`, `#r`, `r.dropped`), with every die's detail.
---@class Roll
---@field total number
---@field successes integer
---@field failures integer
---@field dice Die[]
---@field dropped integer[]
---@field expr string
---@field [integer] integer
local Roll = {}
---How many kept dice show `face`, or how many dice `pred` accepts.
---@param face_or_pred integer|fun(d: Die): boolean
---@return integer
function Roll:count(face_or_pred) end
---The expression that rolls again the dice this roll counted, as `die`: `r:again("d6>=5")`.
---@param die string
---@return string
function Roll:again(die) end

---An itemised breakdown.
---@class Check
local Check = {}
---@param expr string
---@param label string
---@param rule? string
---@param by? Handle|string who rolls (shown when the umpire types the dice)
---@return number total
---@return Roll roll
function Check:roll(expr, label, rule, by) end
---@param value number
---@param label string
---@param rule? string
function Check:add(value, label, rule) end
---@param label string
---@param value number
---@param rule? string
function Check:set(label, value, rule) end
---@param label string
---@return number
function Check:remove(label) end
---@param label string
---@return number|nil
function Check:find(label) end
---@return number
function Check:total() end
---@param name string
---@param situation? table read-only for the hooks
function Check:point(name, situation) end
---@param text string
function Check:result(text) end

---What comparing checks gave.
---@class Opposed
---@field winner integer|nil the winning side's position
---@field winners integer[]
---@field name string|nil the winner's name
---@field margin number
---@field tie boolean
---@field ties integer how many ties were rolled again
---@field totals number[]
---@field checks Check[]

---What `run` and hooks get.
---@class Ctx
---@field command string
---@field args table<string, any> read-only
local Ctx = {}
---@param title string the title, with its rule reference
---@return Check
function Ctx:check(title) end
---Two (or more) sides compared; each a check, or a function(attempt) that makes one.
---@param a Check|fun(attempt: integer): Check|(Check|fun(attempt: integer): Check)[]
---@param b? Check|fun(attempt: integer): Check
---@param opts? {tie: "again"|"none"|"both"|"first"|"second", names?: string[], title?: string, rule?: string, max?: integer}
---@return Opposed
function Ctx:opposed(a, b, opts) end

---A declared table.
---@class RuleTable
---@field name string
local RuleTable = {}
---@return any cell, any key
function RuleTable:lookup(key, col) end
---@return any value, integer total
function RuleTable:roll(modifier, col) end

---The umpire API (read-only).
umpire = {}
---@type string
umpire.version = "0.1"
---@type string|nil
umpire.variant = nil
---Declares the rule system (once, in the ruleset's init.lua).
---@param spec {name: string, doc?: string, schema?: table, sequence?: table, tables?: table, variants?: table, distance?: "in"|"cm"}
function umpire.ruleset(spec) end
---Registers a command.
---@param spec {name: string, help?: string, args?: table[], run: fun(ctx: Ctx, args: table): any, secret?: boolean}
function umpire.command(spec) end
---@param event string
---@param fn fun(event: table): boolean|nil
---@param opts? {at_once: boolean}
function umpire.on(event, fn, opts) end
---Raises a rule's own event: its handlers run at once.
---@param name string
---@param fields table
---@return boolean false when a handler returned false
function umpire.emit(name, fields) end
---@param point string
---@param fn fun(c: Check, ctx: Ctx, situation: table|nil)
function umpire.hook(point, fn) end
---Declares an option (a table), or reads one's value in force (a name).
---@param spec_or_name {name: string, default: any, choices?: (string|string[])[], doc: string, rule?: string}|string
---@return any
function umpire.option(spec_or_name) end
---@return table<string, any>
function umpire.options() end
---Declares a table (a table), or gives a declared one's handle (a name).
---@param spec_or_name table|string
---@return RuleTable|nil
function umpire.table(spec_or_name) end
---@return string[]
function umpire.tables() end
---@param expr string
---@param opts? string|{label?: string, by?: Handle|string, title?: string}
---@return number total
---@return Roll roll
function umpire.roll(expr, opts) end
---@return any cell, any key
function umpire.lookup(table_name, key, col) end
---@return any value, integer total
function umpire.roll_table(table_name, modifier, col) end
---@param id string
---@return Handle
function umpire.unit(id) end
---@param id string the element's id, or `"UNIT.ELEMENT"`
---@return Handle
function umpire.element(id) end
---@param spec {command: string|Handle, id: string, name?: string, attrs?: table<string, any>, elements?: table[], reason: string}
---@return Handle
function umpire.create_unit(spec) end
---@param selector string
---@return Handle[]
function umpire.units(selector) end
---@param selector string
---@return integer
function umpire.count(selector) end
---@return string[]
function umpire.sides() end
---@param id string
---@return Handle
function umpire.side(id) end
---@param id string
---@return Handle
function umpire.group(id) end
---@return {round: integer, phase: string|nil, side: string|nil, text: string}
function umpire.clock() end
---@return string|nil
function umpire.ruleset_name() end
---Asks the umpire; the choice picked (or the default where nobody can be asked).
---@param q {question: string, choices: string[], default?: string, context?: string}
---@return string
function umpire.ask(q) end
---Keeps plain data for programs reading the command's JSON (`record.KEY`); shown to nobody.
---A unit, side, command or element handle in it is kept as its id.
---@param key string
---@param value any
function umpire.record(key, value) end
---Refuses the command with a plain message.
---@param message string
function umpire.fail(message) end

---The script's store: plain data kept in the game, journalled and undone. A handle stored
---is kept as its id (`umpire.unit(id)` gives the handle back).
---@type table<string, any>
store = {}
---The script's secret store: as `store`, never shown.
---@type table<string, any>
secret = {}
