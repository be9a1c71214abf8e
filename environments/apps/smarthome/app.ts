import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, tabBar, toast } from '../kit.js';
import { esc } from '../shared.js';
import {
  AUTO_LOCK_OPTIONS,
  codeProblem,
  KEYPAD_LOCKS,
  NAME_MAX,
  ROOMS,
  SCHEDULES,
  type Device,
  type Lock,
  type SmartHomeState,
} from './state.js';

const ACCENT = '#0b7285';
const CSS =
  kitCss(ACCENT, '#c5f6fa') +
  `
body{background:#f1f4f5}
.tabs{display:flex;background:#fff;border-bottom:1px solid #dde3e6}
.tabs a{flex:1;text-align:center;padding:14px 0;font-size:16px;font-weight:bold;color:#5f6670;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.dev{width:42px;height:42px;border-radius:21px;flex:none;display:flex;align-items:center;justify-content:center;font-size:17px;font-weight:bold;background:#e9ecef;color:#5f6670}
.dev.on{background:#ffe066;color:#5c4400}
.dev.temp{background:#ffd8a8;color:#8a3c00;font-size:15px}
.dev.lk{background:#d3f9d8;color:#1b5e20}
.dev.open{background:#ffe3e3;color:#a61e1e}
.state{font-size:15px;font-weight:bold;color:#5f6670;flex:none}
.state.on{color:${ACCENT}}
.state.open{color:#c92a2a}
.card{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #dde3e6}
.card h2{margin:0 0 6px;font-size:23px}
.card .d{font-size:17px;color:#4a4f57;margin-top:6px}
.big{margin:12px;padding:26px 18px;border-radius:16px;background:#fff;border:1px solid #dde3e6;text-align:center}
.big .ring{width:96px;height:96px;border-radius:48px;margin:0 auto 12px;display:flex;align-items:center;justify-content:center;font-size:30px;font-weight:bold;background:#e9ecef;color:#5f6670}
.big .ring.on{background:#ffe066;color:#5c4400}
.big .ring.lk{background:#d3f9d8;color:#1b5e20}
.big .ring.open{background:#ffe3e3;color:#a61e1e}
.big h2{margin:0;font-size:26px}
.big .d{font-size:16px;color:#4a4f57;margin-top:6px}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
.pick.empty-v{color:#868e96}
.field .hint{font-size:15px;color:#5f6670;margin-top:6px}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px;min-height:4px}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #eceef1;font-size:18px}
.kv .k{color:#5f6670;flex:none}
.kv .v{font-weight:bold;text-align:right}
.intro{padding:14px 16px 0;font-size:16px;color:#4a4f57}
.secondary{display:block;margin:16px 12px;height:54px;border-radius:27px;border:2px solid ${ACCENT};color:${ACCENT};font-size:19px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:50px;background:#fff}
`;

type Tab = 'rooms' | 'locks' | 'activity' | 'more';
const tabs = (ctx: AppContext, on: Tab): string =>
  tabBar(
    [
      ['rooms', 'Rooms', `${ctx.base}/`],
      ['locks', 'Locks', `${ctx.base}/locks`],
      ['activity', 'Activity', `${ctx.base}/activity`],
      ['more', 'More', `${ctx.base}/more`],
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Locks', `${ctx.base}/locks`],
    ['Guest access', `${ctx.base}/guests`],
    ['Activity', `${ctx.base}/activity`],
  ]);

const GLYPH: Readonly<Record<Device['kind'], string>> = { Light: 'L', Plug: 'P', Fan: 'F', Thermostat: '' };
const devIcon = (d: Device, state: SmartHomeState): string =>
  d.kind === 'Thermostat' ? `<div class="dev temp">${state.insideF}&deg;</div>` : `<div class="dev${d.on ? ' on' : ''}">${GLYPH[d.kind]}</div>`;
/** "On · 60%" / "On · 1,200 W" / "Off". */
const devSummary = (d: Device): string =>
  !d.on ? 'Off' : d.kind === 'Light' ? `On &middot; ${d.level}%` : d.kind === 'Plug' ? `On &middot; ${d.level.toLocaleString('en-US')} W` : `On &middot; speed ${d.level > 45 ? 3 : 2}`;
const lockIcon = (l: Lock): string => `<div class="dev ${l.locked ? 'lk' : 'open'}">${l.locked ? 'L' : 'U'}</div>`;

function roomsPage(state: SmartHomeState, ctx: AppContext): AppResponse {
  const lightsOn = state.devices.filter((d) => d.kind === 'Light' && d.on).length;
  const open = state.locks.filter((l) => !l.locked).length;
  const row = (d: Device): string =>
    `<a class="row" href="${ctx.base}/device/${d.id}">${devIcon(d, state)}<div class="info"><div class="t">${esc(d.name)}</div><div class="s">${
      d.kind === 'Thermostat' ? `Heat &middot; set to 70&deg;` : d.kind
    }</div></div><span class="state${d.on ? ' on' : ''}">${d.kind === 'Thermostat' ? `${state.insideF}&deg;` : d.on ? 'On' : 'Off'}</span></a>`;
  const rooms = ROOMS.map((r) => `<div class="section">${esc(r)}</div>${state.devices.filter((d) => d.room === r).map(row).join('')}`).join('');
  const body = `${appbar('HomeHub')}${tabs(ctx, 'rooms')}
<div class="card"><div class="d" style="margin:0">Maple Street &middot; ${state.insideF}&deg; inside</div><h2 style="margin:6px 0 0">Good morning, Alex</h2><div class="d">${lightsOn} light${
    lightsOn === 1 ? '' : 's'
  } on &middot; ${open ? `${open} door${open === 1 ? '' : 's'} unlocked` : 'All doors locked'}</div></div>
${rooms}<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'HomeHub', css: CSS, body, ctx, root: true });
}

function devicePage(state: SmartHomeState, ctx: AppContext, d: Device, toastKind: string): AppResponse {
  if (d.kind === 'Thermostat') {
    const body = `${appbar(d.name, { back: true })}
<div class="big"><div class="ring">${state.insideF}&deg;</div><h2>Heating to 70&deg;</h2><div class="d">Inside now ${state.insideF}&deg; &middot; humidity 41%</div></div>
<div class="section">Settings</div>
<div class="kv"><span class="k">Mode</span><span class="v">Heat</span></div>
<div class="kv"><span class="k">Schedule</span><span class="v">Weekdays 6:30 AM – 10 PM</span></div>
<div class="kv"><span class="k">Room</span><span class="v">${esc(d.room)}</span></div>
<div class="kv"><span class="k">Model</span><span class="v">Ecobee Smart Thermostat</span></div>
<div class="spacer"></div>${menu(ctx)}`;
    return renderPage({ title: d.name, css: CSS, body, ctx });
  }
  const what = d.kind === 'Light' ? 'light' : d.kind === 'Fan' ? 'fan' : 'smart plug';
  const extra =
    d.kind === 'Light'
      ? `<div class="kv"><span class="k">Brightness</span><span class="v">${d.level}%</span></div><div class="kv"><span class="k">Color</span><span class="v">Warm white</span></div>`
      : d.kind === 'Plug'
        ? `<div class="kv"><span class="k">Power draw</span><span class="v">${d.on ? `${d.level.toLocaleString('en-US')} W` : '0 W'}</span></div><div class="kv"><span class="k">Energy today</span><span class="v">${(d.level / 1000).toFixed(1)} kWh</span></div>`
        : `<div class="kv"><span class="k">Speed</span><span class="v">${d.level > 45 ? 'High' : 'Medium'}</span></div>`;
  const schedule = d.room === 'Outside' ? 'Sunset to 11:00 PM' : d.name === 'Coffee Maker' ? 'Weekdays at 6:45 AM' : 'None';
  const body = `${appbar(d.name, { back: true })}
<div class="big"><div class="ring${d.on ? ' on' : ''}">${d.on ? 'ON' : 'OFF'}</div><h2>${esc(d.name)}</h2><div class="d">${esc(d.room)} &middot; ${devSummary(d)}</div></div>
<button class="row" role="switch" aria-checked="${d.on}" aria-label="Power" onclick="power(this)"><div class="info"><div class="t">Power</div><div class="s">${
    d.on ? `The ${what} is on` : `The ${what} is off`
  }</div></div><span class="switch${d.on ? ' on' : ''}"></span></button>
<div class="section">Details</div>${extra}
<div class="kv"><span class="k">Schedule</span><span class="v">${schedule}</span></div>
<div class="kv"><span class="k">Room</span><span class="v">${esc(d.room)}</span></div>
<div class="kv"><span class="k">Connected</span><span class="v">Wi-Fi &middot; strong</span></div>
<div class="spacer"></div>${menu(ctx)}${toastKind === 'on' ? toast(`${d.name} turned on`) : toastKind === 'off' ? toast(`${d.name} turned off`) : ''}`;
  const script = `function power(el){const on=el.getAttribute('aria-checked')!=='true';api('power',{id:${d.id},on}).then(r=>{if(r.ok)location.replace(BASE+'/device/${d.id}?toast='+(r.on?'on':'off'))})}`;
  return renderPage({ title: d.name, css: CSS, body, ctx, script });
}

function locksPage(state: SmartHomeState, ctx: AppContext, toastKind: string): AppResponse {
  const open = state.locks.filter((l) => !l.locked);
  const row = (l: Lock): string =>
    `<a class="row" href="${ctx.base}/lock/${l.id}">${lockIcon(l)}<div class="info"><div class="t">${esc(l.name)}</div><div class="s">Battery ${l.battery}%${
      l.keypad ? ' &middot; keypad' : ''
    }</div></div><span class="state${l.locked ? '' : ' open'}">${l.locked ? 'Locked' : 'Unlocked'}</span></a>`;
  const body = `${appbar('Locks')}${tabs(ctx, 'locks')}
<div class="card"><div class="d" style="margin:0">Door status</div><h2 style="margin:6px 0 0">${
    open.length === 1 ? `${esc(open[0]?.name ?? '')} is unlocked` : open.length ? `${open.length} unlocked: ${open.map((l) => esc(l.name)).join(', ')}` : 'Everything is locked'
  }</h2></div>
<div class="section">Doors and gates (${state.locks.length})</div>${state.locks.map(row).join('')}
<div class="section">Lock settings</div>
<div class="field"><label>Auto-lock</label><button class="pick" onclick="show('autolock')"><span id="autolock-v">${esc(state.autoLock)}</span><span>&#9662;</span></button>
<div class="hint">Locks every door again this long after it's unlocked.</div></div>
<button class="row" role="switch" aria-checked="${state.awayLock}" aria-label="Lock when everyone leaves" onclick="away(this)"><div class="info"><div class="t">Lock when everyone leaves</div><div class="s">Uses your phone's location</div></div><span class="switch${
    state.awayLock ? ' on' : ''
  }"></span></button><div class="spacer"></div>${menu(ctx)}
${pickerDialog('autolock', 'Lock automatically after', AUTO_LOCK_OPTIONS, state.autoLock, 'pick')}
${toastKind === 'autolock' ? toast(state.autoLock === 'Off' ? 'Auto-lock off' : `Doors lock again after ${state.autoLock}`) : ''}`;
  const script = `function pick(v){api('auto-lock',{value:v}).then(r=>{if(r.ok)location.replace(BASE+'/locks?toast=autolock')})}
function away(el){api('away-lock',{on:el.getAttribute('aria-checked')!=='true'}).then(r=>{if(!r.ok)return;el.setAttribute('aria-checked',String(r.on));el.querySelector('.switch').classList.toggle('on',r.on)})}`;
  return renderPage({ title: 'Locks', css: CSS, body, ctx, script, root: true });
}

/** What happened to a lock before this session (newest first). */
const lockHistory = (l: Lock): readonly (readonly [string, string])[] =>
  l.locked
    ? [
        ['Locked by auto-lock', 'Today, 8:12 AM'],
        ['Unlocked by Alex', 'Today, 8:09 AM'],
        ['Locked from the keypad', 'Yesterday, 10:47 PM'],
      ]
    : [
        ['Unlocked by Jordan', 'Today, 7:15 AM'],
        ['Locked by Jordan', 'Yesterday, 6:02 PM'],
      ];

function lockPage(state: SmartHomeState, ctx: AppContext, l: Lock, toastKind: string): AppResponse {
  const since = `${l.locked ? 'Locked' : 'Unlocked'} since ${l.touched ? '9:41 AM' : l.locked ? '8:12 AM' : '7:15 AM'}`;
  const action = l.locked ? `<button class="primary" onclick="show('unlock')">Unlock</button>` : `<button class="primary" onclick="setLock(true)">Lock</button>`;
  const relock = state.autoLock === 'Off' ? '' : ` It locks again after ${state.autoLock}.`;
  const body = `${appbar(l.name, { back: true })}
<div class="big"><div class="ring ${l.locked ? 'lk' : 'open'}">${l.locked ? 'L' : 'U'}</div><h2>${l.locked ? 'Locked' : 'Unlocked'}</h2><div class="d">${since}</div></div>
${action}
<div class="kv"><span class="k">Battery</span><span class="v">${l.battery}%</span></div>
<div class="kv"><span class="k">Model</span><span class="v">${esc(l.model)}</span></div>
<div class="section">Lock history</div>${lockHistory(l)
    .map(([what, when]) => `<div class="row"><div class="info"><div class="t">${esc(what)}</div><div class="s">${esc(when)}</div></div></div>`)
    .join('')}<div class="spacer"></div>${menu(ctx)}
${confirmDialog('unlock', `Unlock ${l.name}?`, `Anyone nearby will be able to open it.${relock}`, 'Unlock', 'setLock(false)')}
${toastKind === 'unlocked' ? toast(`${l.name} unlocked`) : toastKind === 'locked' ? toast(`${l.name} locked`) : ''}`;
  const script = `function setLock(locked){api('lock',{id:${l.id},locked}).then(r=>{if(r.ok)location.replace(BASE+'/lock/${l.id}?toast='+(r.locked?'locked':'unlocked'))})}`;
  return renderPage({ title: l.name, css: CSS, body, ctx, script });
}

/** Events before this session, newest first. */
const EARLIER: readonly (readonly [string, string])[] = [
  ['Front Door locked by auto-lock', 'Today, 8:12 AM'],
  ['Front Door unlocked by Alex', 'Today, 8:09 AM'],
  ['Coffee Maker turned off by schedule', 'Today, 7:30 AM'],
  ['Shed unlocked by Jordan', 'Today, 7:15 AM'],
  ['Porch Light turned off by schedule', 'Yesterday, 11:00 PM'],
  ['Back Gate unlocked with Tom next door\'s code', 'Yesterday, 5:05 PM'],
  ['Front Door unlocked with Marta (cleaner)\'s code', 'Yesterday, 10:02 AM'],
];

function activityPage(state: SmartHomeState, ctx: AppContext): AppResponse {
  const row = ([what, when]: readonly [string, string]): string => `<div class="row"><div class="info"><div class="t">${esc(what)}</div><div class="s">${esc(when)}</div></div></div>`;
  const body = `${appbar('Activity')}${tabs(ctx, 'activity')}<div class="intro">Everything your devices and locks did in the last 24 hours.</div>
<div class="section">Recent</div>${[...state.log.map((t): [string, string] => [t, 'Today, 9:41 AM']).reverse(), ...EARLIER].map(row).join('')}<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Activity', css: CSS, body, ctx, root: true });
}

function morePage(ctx: AppContext): AppResponse {
  const body = `${appbar('More')}${tabs(ctx, 'more')}
<div class="row"><div class="av" style="background:${ACCENT}">AK</div><div class="info"><div class="t">Alex Kim</div><div class="s">Maple Street home &middot; owner</div></div></div>
<div class="section">Home</div>
<a class="row" href="${ctx.base}/guests"><div class="info"><div class="t">Guest access</div><div class="s">Keypad codes for family, sitters and service people</div></div><span class="muted">&rsaquo;</span></a>
<div class="row"><div class="info"><div class="t">Home members</div><div class="s">Alex Kim, Jordan Kim</div></div></div>
<div class="row"><div class="info"><div class="t">Wi-Fi and hubs</div><div class="s">HomeHub Bridge &middot; online</div></div></div>
<div class="section">App</div>
<div class="row"><div class="info"><div class="t">Notifications</div><div class="s">Doors, leaks and low batteries</div></div></div>
<div class="row"><div class="info"><div class="t">Help and feedback</div><div class="s">Guides, support chat</div></div></div>
<div class="row"><div class="info"><div class="t">App version</div><div class="s">3.8.1</div></div></div>${menu(ctx)}`;
  return renderPage({ title: 'More', css: CSS, body, ctx, root: true });
}

const lastTwo = (code: string): string => code.slice(-2);

function guestsPage(state: SmartHomeState, ctx: AppContext): AppResponse {
  const rows = state.codes
    .map(
      (c) =>
        `<div class="row"><div class="av" style="background:#868e96">${esc((c.name[0] ?? '?').toUpperCase())}</div><div class="info"><div class="t">${esc(c.name)}</div><div class="s">${esc(c.door)} &middot; ${esc(
          c.schedule,
        )} &middot; code ends in ${esc(lastTwo(c.code))}</div></div></div>`,
    )
    .join('');
  const body = `${appbar('Guest access', { back: true })}
<div class="intro">Give people their own keypad code. You'll get a notification each time a code is used.</div>
<div class="section">Access codes (${state.codes.length})</div>${rows}
<a class="primary" href="${ctx.base}/guests/new">Add access code</a><div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Guest access', css: CSS, body, ctx });
}

function newCodePage(ctx: AppContext): AppResponse {
  const body = `${appbar('New access code', { back: true, menu: false })}
<div class="field" id="f-name"><label for="name">Name</label><input id="name" type="text" placeholder="Who is this code for?" autocomplete="off"><div class="ferr" id="e-name"></div></div>
<div class="field" id="f-door"><label>Works on</label><button class="pick empty-v" onclick="show('doors')"><span id="door-v">Choose a lock</span><span>&#9662;</span></button><div class="ferr" id="e-door"></div></div>
<div class="field" id="f-code"><label for="code">Code</label><input id="code" type="text" inputmode="numeric" placeholder="4 to 8 digits" autocomplete="off"><div class="ferr" id="e-code"></div></div>
<div class="field" id="f-schedule"><label>When it works</label><button class="pick" onclick="show('schedules')"><span id="schedule-v">Always</span><span>&#9662;</span></button><div class="ferr" id="e-schedule"></div></div>
<button class="primary" onclick="save()">Save code</button><div class="spacer"></div>
${pickerDialog('doors', 'Works on', KEYPAD_LOCKS, '', 'pickDoor')}${pickerDialog('schedules', 'When it works', SCHEDULES, 'Always', 'pickSchedule')}`;
  const script = `const V={door:'',schedule:'Always'};
function pickInto(key,v){V[key]=v;const s=document.getElementById(key+'-v');s.textContent=v;s.parentElement.classList.remove('empty-v');
 for(const o of document.querySelectorAll('#'+key+'s .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(key+'s')}
function pickDoor(v){pickInto('door',v)}
function pickSchedule(v){pickInto('schedule',v)}
function save(){const v=id=>document.getElementById(id).value;
 for(const k of ['name','door','code','schedule']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 api('code',{name:v('name'),door:V.door,code:v('code'),schedule:V.schedule}).then(r=>{if(r.ok){location.replace(BASE+'/guests/saved');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'New access code', css: CSS, body, ctx, script });
}

function codeSavedPage(state: SmartHomeState, ctx: AppContext): AppResponse {
  const c = [...state.codes].reverse().find((x) => x.added);
  if (!c) return { status: 303, redirect: `${ctx.base}/guests/new` };
  const body = `${appbar('Code saved', { menu: false })}
<div class="card"><h2>Code ready for ${esc(c.name)}</h2><div class="d">It works on the keypad as soon as the lock syncs, usually within a minute.</div></div>
<div class="kv"><span class="k">Works on</span><span class="v">${esc(c.door)}</span></div>
<div class="kv"><span class="k">Code</span><span class="v">${esc(c.code)}</span></div>
<div class="kv"><span class="k">When it works</span><span class="v">${esc(c.schedule)}</span></div>
<a class="primary" href="${ctx.base}/guests">Done</a>`;
  return renderPage({ title: 'Code saved', css: CSS, body, ctx });
}

function handleApi(state: SmartHomeState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  switch (action) {
    case 'power': {
      const d = state.devices.find((x) => x.id === Number(b.id));
      if (!d || d.kind === 'Thermostat') return json({ ok: false, error: 'unknown device' }, 404);
      if (typeof b.on !== 'boolean') return json({ ok: false, error: 'on must be true or false' }, 400);
      d.on = b.on;
      state.log.push(`${d.name} turned ${d.on ? 'on' : 'off'} by Alex`);
      return json({ ok: true, on: d.on });
    }
    case 'lock': {
      const l = state.locks.find((x) => x.id === Number(b.id));
      if (!l) return json({ ok: false, error: 'unknown lock' }, 404);
      if (typeof b.locked !== 'boolean') return json({ ok: false, error: 'locked must be true or false' }, 400);
      l.locked = b.locked;
      l.touched = true;
      state.log.push(`${l.name} ${l.locked ? 'locked' : 'unlocked'} by Alex`);
      return json({ ok: true, locked: l.locked });
    }
    case 'auto-lock': {
      const value = str(b.value);
      if (!AUTO_LOCK_OPTIONS.includes(value)) return json({ ok: false, error: 'unknown auto-lock time' }, 400);
      state.autoLock = value;
      return json({ ok: true });
    }
    case 'away-lock': {
      if (typeof b.on !== 'boolean') return json({ ok: false, error: 'on must be true or false' }, 400);
      state.awayLock = b.on;
      return json({ ok: true, on: state.awayLock });
    }
    case 'code': {
      const name = str(b.name).trim().replace(/\s+/g, ' ');
      const door = str(b.door);
      const code = str(b.code).trim();
      const schedule = str(b.schedule) || 'Always';
      const errors: Record<string, string> = {};
      if (!name) errors.name = 'Enter a name for this code';
      else if (name.length > NAME_MAX) errors.name = `Keep the name under ${NAME_MAX} characters`;
      else if (state.codes.some((c) => c.name.toLowerCase() === name.toLowerCase())) errors.name = 'There is already a code with this name';
      if (!KEYPAD_LOCKS.includes(door)) errors.door = 'Choose the lock this code works on';
      const problem = codeProblem(code, state.codes.map((c) => c.code));
      if (problem) errors.code = problem;
      if (!SCHEDULES.includes(schedule)) errors.schedule = 'Choose when the code works';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      state.codes.push({ name, door, code, schedule, added: true });
      state.log.push(`Access code added for ${name} on ${door}`);
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleSmartHome(state: SmartHomeState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return roomsPage(state, ctx);
  if (head === 'locks') return locksPage(state, ctx, t);
  if (head === 'activity') return activityPage(state, ctx);
  if (head === 'more') return morePage(ctx);
  if (head === 'guests' && arg === undefined) return guestsPage(state, ctx);
  if (head === 'guests' && arg === 'new') return newCodePage(ctx);
  if (head === 'guests' && arg === 'saved') return codeSavedPage(state, ctx);
  const id = Number(arg);
  const device = head === 'device' ? state.devices.find((x) => x.id === id) : undefined;
  if (device) return devicePage(state, ctx, device, t);
  const lock = head === 'lock' ? state.locks.find((x) => x.id === id) : undefined;
  if (lock) return lockPage(state, ctx, lock, t);
  return notFound(CSS);
}
