import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  CARD,
  clock,
  DEFAULT_REGION,
  DURATIONS,
  EMAIL,
  endMin,
  EXTENSIONS,
  extensionsAllowed,
  minutesLabel,
  money,
  NICKNAME_MAX,
  normPlate,
  NOW_MIN,
  parkingCents,
  plateProblem,
  REGIONS,
  SERVICE_FEE_CENTS,
  sessionCents,
  totalMin,
  type ParkingState,
  type Session,
  type Vehicle,
  type Zone,
} from './state.js';

const ACCENT = '#5f3dc4';
const CSS =
  kitCss(ACCENT, '#e5dbff') +
  `
body{background:#f3f1f8}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #dcd6ea}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#6b6478}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.search{margin:12px;padding:14px;background:#fff;border-radius:14px;border:1px solid #dcd6ea}
.search .q{font-size:17px;font-weight:bold;margin-bottom:10px}
.search input{width:100%;height:52px;border:2px solid #cfc8e0;border-radius:26px;padding:0 20px;font-size:19px;outline:none;background:#faf9fd}
.search input:focus{border-color:${ACCENT}}
.banner{display:block;margin:0 12px 6px;padding:14px 16px;border-radius:14px;background:#e5dbff;color:#36227a;font-size:16px}
.banner b{font-size:17px}
.zc{width:58px;height:44px;border-radius:10px;flex:none;display:flex;align-items:center;justify-content:center;font-size:16px;font-weight:bold;background:#ede7fb;color:${ACCENT}}
.price{font-size:16px;font-weight:bold;color:#2b2537;flex:none;text-align:right}
.card{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #dcd6ea}
.card h2{margin:0 0 6px;font-size:24px}
.card .d{font-size:16px;color:#4d4659;margin-top:4px}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.pickrow{display:flex;align-items:center;gap:12px;width:100%;padding:14px 16px;background:#fff;border-bottom:1px solid #eceaf1;text-align:left}
.pickrow .info{flex:1}
.pickrow .t{font-size:18px;font-weight:bold}
.pickrow .s{font-size:15px;color:#5f5870;margin-top:2px}
.pickrow .chg{font-size:16px;font-weight:bold;color:${ACCENT}}
.durs{display:flex;flex-wrap:wrap;gap:10px;padding:8px 16px 4px}
.durs .chip{height:46px;font-size:16px}
.durs .chip.off{border-style:dashed;color:#adb5bd;background:#f8f9fa}
.preview{padding:10px 16px;font-size:16px;color:#4d4659;min-height:24px}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #eceaf1;font-size:17px}
.kv .k{color:#5f5870;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv.total{font-size:19px}
.clockface{margin:12px;padding:22px 18px;border-radius:16px;background:${ACCENT};color:#fff;text-align:center}
.clockface .left{font-size:40px;font-weight:bold}
.clockface .d{font-size:17px;opacity:.9;margin-top:6px}
.secondary{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid #c92a2a;color:#c92a2a;font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;background:#fff}
.vopt{display:flex;align-items:center;gap:12px;width:100%;padding:12px 4px;text-align:left;border-bottom:1px solid #f1f0f4}
.vopt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.vopt.sel .rad{border:7px solid ${ACCENT}}
.vopt .t{font-size:17px;font-weight:bold}
.vopt .s{font-size:14px;color:#5f5870}
.vopt .warn{font-size:14px;color:#c92a2a;font-weight:bold}
.sheet .xopt{display:flex;align-items:center;gap:14px;width:100%;padding:14px 20px;text-align:left;font-size:18px}
.sheet .xopt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.sheet .xopt.sel .rad{border:7px solid ${ACCENT}}
.sheet .xopt[aria-disabled=true]{color:#adb5bd}
.sheet .xopt .n{margin-left:auto;font-size:15px;color:#5f5870}
.sheet .xopt[aria-disabled=true] .n{color:#c92a2a}
.sheet .go{display:block;margin:10px 16px 0;width:calc(100% - 32px);height:52px;border-radius:26px;background:${ACCENT};color:#fff;font-size:18px;font-weight:bold;text-align:center;padding:0}
.sheet .go[disabled]{background:#c5bedb}
.badge{font-size:13px;font-weight:bold;color:${ACCENT};background:#ede7fb;border-radius:10px;padding:3px 8px;margin-left:6px}
.field .hint{font-size:15px;color:#5f5870;margin-top:6px}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
.none{padding:18px 16px;font-size:17px;color:#5f5870;background:#fff}
`;

type Tab = 'park' | 'sessions' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'park', label: 'Park', glyph: '&#9873;', href: `${ctx.base}/` },
      { id: 'sessions', label: 'Sessions', glyph: '&#9684;', href: `${ctx.base}/sessions` },
      { id: 'account', label: 'Account', glyph: '&#9786;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Sessions', `${ctx.base}/sessions`],
    ['Vehicles', `${ctx.base}/vehicles`],
    ['Help', `${ctx.base}/account`],
  ]);

const vehicleOf = (state: ParkingState, plate: string): Vehicle | undefined => state.vehicles.find((v) => v.plate === plate);
const zoneOf = (state: ParkingState, code: string): Zone | undefined => state.zones.find((z) => z.code === code);
const running = (state: ParkingState): Session[] => state.sessions.filter((s) => s.active);
/** Where a vehicle is parked right now, if anywhere. */
const parkedAt = (state: ParkingState, v: Vehicle): Session | undefined => running(state).find((s) => s.plate === v.plate);
const vLabel = (v: Vehicle | undefined, plate: string): string => (v ? `${v.name} · ${v.plate}` : plate);
const maxLabel = (z: Zone): string => `max ${minutesLabel(z.maxMin)}`;
const leftLabel = (s: Session): string => minutesLabel(Math.max(0, endMin(s) - NOW_MIN));

function parkPage(state: ParkingState, ctx: AppContext): AppResponse {
  const now = running(state).sort((a, b) => endMin(a) - endMin(b));
  const first = now[0];
  const banner = first
    ? `<a class="banner" href="${ctx.base}/sessions"><b>${now.length} car${now.length === 1 ? '' : 's'} parked now</b><br>Zone ${esc(first.zone)} ends at ${clock(endMin(first))} &middot; tap to manage</a>`
    : '';
  const rows = [...state.zones]
    .sort((a, b) => a.tenths - b.tenths || a.code.localeCompare(b.code))
    .map(
      (z) =>
        `<a class="row zone" data-zone="${esc(z.code)}" href="${ctx.base}/zone/${esc(z.code)}"><div class="zc">${esc(z.code)}</div><div class="info"><div class="t">Zone ${esc(z.code)}</div><div class="s">${esc(
          z.place,
        )} &middot; ${(z.tenths / 10).toFixed(1)} mi</div></div><div class="price">${money(z.rate)}/hr<div class="muted">${maxLabel(z)}</div></div></a>`,
    )
    .join('');
  const body = `${appbar('ParkSpot')}
<div class="search"><div class="q">Where are you parking?</div><input id="zone-q" type="text" inputmode="numeric" placeholder="Enter zone number" autocomplete="off" aria-label="Enter zone number" oninput="filter(this.value)"></div>
${banner}<div class="section">Zones near you</div><div id="zones">${rows}</div><div class="none" id="nozone" hidden>No zone matches that number. Check the green sign at the meter.</div>
<div class="spacer"></div>${bottomNav(ctx, 'park')}${menu(ctx)}`;
  const script = `function filter(q){q=q.replace(/\\D/g,'');let n=0;for(const r of document.querySelectorAll('.row.zone')){const m=r.dataset.zone.startsWith(q);r.hidden=!m;if(m)n++}document.getElementById('nozone').hidden=n>0}`;
  return renderPage({ title: 'ParkSpot', css: CSS, body, ctx, script, root: true });
}

function zonePage(state: ParkingState, ctx: AppContext, z: Zone): AppResponse {
  const def = state.vehicles.find((v) => v.isDefault) ?? state.vehicles[0];
  const vopts = state.vehicles
    .map((v) => {
      const at = parkedAt(state, v);
      return `<button class="vopt${v === def ? ' sel' : ''}" role="radio" aria-checked="${v === def}" data-id="${v.id}" data-label="${esc(v.name)}" data-plate="${esc(v.plate)}" onclick="pickV(this)"><span class="rad"></span><span><div class="t">${esc(
        v.name,
      )}</div><div class="s">${esc(v.plate)} &middot; ${esc(v.region)}</div>${at ? `<div class="warn">Parked in Zone ${esc(at.zone)}</div>` : ''}</span></button>`;
    })
    .join('');
  const chips = DURATIONS.map(
    ([label, m]) =>
      `<button class="chip${m > z.maxMin ? ' off' : ''}" data-m="${m}" aria-disabled="${m > z.maxMin}" aria-pressed="false" onclick="pickD(this)">${esc(label)}</button>`,
  ).join('');
  const body = `${appbar(`Zone ${z.code}`, { back: true })}
<div class="card"><h2>${esc(z.place)}</h2><div class="d">${money(z.rate)} per hour &middot; ${maxLabel(z)}</div><div class="d">Enforced Mon&ndash;Sat, 8 AM &ndash; 8 PM</div></div>
<div class="section">Vehicle</div>
<button class="pickrow" id="vehicle-row" onclick="show('vehicles')"><div class="info"><div class="t" id="v-name">${esc(def?.name ?? '')}</div><div class="s" id="v-plate">${esc(def?.plate ?? '')}</div></div><span class="chg">Change</span></button>
<div class="ferr" id="e-vehicle" style="padding:0 16px"></div>
<div class="section">How long?</div><div class="durs">${chips}</div>
<div class="ferr" id="e-minutes" style="padding:0 16px"></div>
<div class="preview" id="preview">Pick a time to see when it ends.</div>
<button class="primary" onclick="go()">Continue</button><div class="spacer"></div>
<div id="vehicles" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('vehicles')"><div class="dialog" role="dialog" aria-label="Which vehicle?"><h2>Which vehicle?</h2>${vopts}
<div class="acts"><button onclick="hide('vehicles')">Cancel</button></div></div></div>${menu(ctx)}`;
  const script = `const Z=${JSON.stringify({ code: z.code, rate: z.rate, max: z.maxMin, now: NOW_MIN, fee: SERVICE_FEE_CENTS })};
const V={vehicle:${def?.id ?? 0},minutes:0};
function clk(m){const h=Math.floor(m/60)%24;return (h%12||12)+':'+String(m%60).padStart(2,'0')+' '+(h<12?'AM':'PM')}
function pickV(el){V.vehicle=Number(el.dataset.id);for(const o of document.querySelectorAll('.vopt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}
 document.getElementById('v-name').textContent=el.dataset.label;document.getElementById('v-plate').textContent=el.dataset.plate;document.getElementById('e-vehicle').textContent='';hide('vehicles')}
function pickD(el){const m=Number(el.dataset.m);const e=document.getElementById('e-minutes');
 if(m>Z.max){e.textContent='Zone '+Z.code+' allows at most '+(Z.max>=60?(Z.max/60)+' hr':Z.max+' min')+' at a time';return}
 e.textContent='';V.minutes=m;for(const c of document.querySelectorAll('.durs .chip')){const on=c===el;c.classList.toggle('on',on);c.setAttribute('aria-pressed',String(on))}
 document.getElementById('preview').textContent='Ends at '+clk(Z.now+m)+' · $'+(Math.round(Z.rate*m/60)/100).toFixed(2)+' + $'+(Z.fee/100).toFixed(2)+' fee'}
function go(){document.getElementById('e-vehicle').textContent='';document.getElementById('e-minutes').textContent='';
 api('check',{zone:Z.code,vehicle:V.vehicle,minutes:V.minutes}).then(r=>{if(r.ok){location.href=BASE+'/review?zone='+Z.code+'&v='+V.vehicle+'&m='+V.minutes;return}
 for(const [k,m] of Object.entries(r.errors||{})){const el=document.getElementById('e-'+k);if(el)el.textContent=m}})}`;
  return renderPage({ title: `Zone ${z.code}`, css: CSS, body, ctx, script });
}

/** Why parking cannot start with these choices, by field (empty when it can). */
function startErrors(state: ParkingState, z: Zone, vehicleId: number, minutes: number): Record<string, string> {
  const errors: Record<string, string> = {};
  const v = state.vehicles.find((x) => x.id === vehicleId);
  if (!v) errors.vehicle = 'Choose a vehicle';
  else {
    const at = parkedAt(state, v);
    if (at) errors.vehicle = `${v.name} is already parked in Zone ${at.zone}. Extend that session from Sessions instead.`;
  }
  if (!DURATIONS.some(([, m]) => m === minutes)) errors.minutes = "Choose how long you'll park";
  else if (minutes > z.maxMin) errors.minutes = `Zone ${z.code} allows at most ${minutesLabel(z.maxMin)} at a time`;
  return errors;
}

function reviewPage(state: ParkingState, ctx: AppContext, q: URLSearchParams): AppResponse {
  const z = zoneOf(state, q.get('zone') ?? '');
  if (!z) return notFound(CSS);
  const vid = Number(q.get('v'));
  const minutes = Number(q.get('m'));
  if (Object.keys(startErrors(state, z, vid, minutes)).length) return { status: 303, redirect: `${ctx.base}/zone/${z.code}` };
  const v = state.vehicles.find((x) => x.id === vid) as Vehicle;
  const cost = parkingCents(z.rate, minutes);
  const body = `${appbar('Review and pay', { back: true, menu: false })}
<div class="kv"><span class="k">Zone</span><span class="v">${esc(z.code)}</span></div>
<div class="kv"><span class="k">Location</span><span class="v">${esc(z.place)}</span></div>
<div class="kv"><span class="k">Vehicle</span><span class="v">${esc(vLabel(v, v.plate))}</span></div>
<div class="kv"><span class="k">Duration</span><span class="v">${minutesLabel(minutes)}</span></div>
<div class="kv"><span class="k">Ends at</span><span class="v">${clock(NOW_MIN + minutes)}</span></div>
<div class="section">Payment</div>
<div class="kv"><span class="k">Parking</span><span class="v">${money(cost)}</span></div>
<div class="kv"><span class="k">Service fee</span><span class="v">${money(SERVICE_FEE_CENTS)}</span></div>
<div class="kv total"><span class="k">Total</span><span class="v">${money(cost + SERVICE_FEE_CENTS)}</span></div>
<div class="kv"><span class="k">Pay with</span><span class="v">${esc(CARD)}</span></div>
<div class="error" id="err"></div>
<button class="primary" onclick="start(this)">Start parking</button>
<div class="hint" style="padding:0 16px;color:#5f5870">Make sure the zone number matches the sign where you parked. Tickets are not refunded for the wrong zone.</div><div class="spacer"></div>`;
  const script = `let busy=false;function start(b){if(busy)return;busy=true;api('start',{zone:${JSON.stringify(z.code)},vehicle:${vid},minutes:${minutes}}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/session/'+r.id+'?toast=started');return}
 document.getElementById('err').textContent=Object.values(r.errors||{}).join(' ')||r.error||'Something went wrong'})}`;
  return renderPage({ title: 'Review and pay', css: CSS, body, ctx, script });
}

function activeSessionPage(state: ParkingState, ctx: AppContext, s: Session, t: string): AppResponse {
  const z = zoneOf(state, s.zone);
  const v = vehicleOf(state, s.plate);
  const used = totalMin(s);
  const allowed = extensionsAllowed(s.zone, used);
  const added = s.extensions.reduce((a, b) => a + b, 0);
  const opts = EXTENSIONS.map(([label, m]) => {
    const okay = allowed.includes(label);
    return `<button class="xopt" role="radio" aria-checked="false" aria-disabled="${!okay}" data-m="${m}" data-label="${esc(label)}" onclick="pickX(this)"><span class="rad"></span>${esc(label)}<span class="n">${
      okay ? `+${money(parkingCents(z?.rate ?? 0, m) + SERVICE_FEE_CENTS)}` : `Over the ${minutesLabel(z?.maxMin ?? 0)} limit`
    }</span></button>`;
  }).join('');
  const head = s.started
    ? `<div class="card ok"><h2>You're parked</h2><div class="d">We'll remind you 10 minutes before your time runs out.</div></div>`
    : '';
  const body = `${appbar(`Zone ${s.zone}`, { back: true })}${head}
<div class="clockface"><div class="left">${leftLabel(s)} left</div><div class="d">Ends at ${clock(endMin(s))}</div></div>
<div class="kv"><span class="k">Vehicle</span><span class="v">${esc(vLabel(v, s.plate))}</span></div>
<div class="kv"><span class="k">Location</span><span class="v">${esc(z?.place ?? '')}</span></div>
<div class="kv"><span class="k">Started</span><span class="v">${clock(s.startMin)}</span></div>
<div class="kv"><span class="k">Time bought</span><span class="v">${minutesLabel(used)} of ${minutesLabel(z?.maxMin ?? 0)} max</span></div>
${added ? `<div class="kv"><span class="k">Extended by</span><span class="v">${minutesLabel(added)}</span></div>` : ''}
<div class="kv"><span class="k">Paid so far</span><span class="v">${money(sessionCents(s, z))}</span></div>
<button class="primary" onclick="${allowed.length ? "show('extend')" : "toastNo()"}">Extend time</button>
<div class="error" id="limit"></div>
<button class="secondary" onclick="show('stop')">Stop parking</button>
<div class="spacer"></div>${bottomNav(ctx, 'sessions')}
<div id="extend" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('extend')"><div class="sheet" role="dialog" aria-label="Add time"><div class="t">Add time to Zone ${esc(s.zone)}</div>${opts}
<div class="error" id="x-err"></div><button class="go" id="x-go" disabled onclick="extend()">Pay and extend</button></div></div>
${confirmDialog('stop', 'Stop parking now?', `Parking for ${v?.name ?? s.plate} in Zone ${s.zone} ends right away. Unused time is not refunded.`, 'Stop', 'stopIt()')}
${t === 'started' ? toast('Parking started') : t === 'extended' ? toast(`Extended, now ends at ${clock(endMin(s))}`) : ''}${menu(ctx)}`;
  const script = `let X=0;
function toastNo(){document.getElementById('limit').textContent='This session is already at the zone limit'}
function pickX(el){const e=document.getElementById('x-err');if(el.getAttribute('aria-disabled')==='true'){e.textContent='That would go over the zone limit';return}
 e.textContent='';X=Number(el.dataset.m);for(const o of document.querySelectorAll('.xopt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}
 const g=document.getElementById('x-go');g.disabled=false;g.textContent='Pay and extend by '+el.dataset.label}
function extend(){if(!X)return;api('extend',{id:${s.id},minutes:X}).then(r=>{if(r.ok){location.replace(BASE+'/session/${s.id}?toast=extended');return}document.getElementById('x-err').textContent=r.error||'Could not extend'})}
function stopIt(){api('stop',{id:${s.id}}).then(r=>{if(r.ok)location.replace(BASE+'/sessions?toast=stopped')})}`;
  return renderPage({ title: `Zone ${s.zone}`, css: CSS, body, ctx, script });
}

const dayLabel = (s: Session): string => `${s.weekday}, ${s.day}`;

function receiptPage(state: ParkingState, ctx: AppContext, s: Session, t: string): AppResponse {
  const z = zoneOf(state, s.zone);
  const v = vehicleOf(state, s.plate);
  const end = s.stopped ? NOW_MIN : endMin(s);
  const sent = s.emailed > 0 ? `Receipt sent to ${EMAIL}` : s.emailedBefore ? `Emailed on ${s.day}` : 'Not sent yet';
  const body = `${appbar('Receipt', { back: true })}
<div class="card"><div class="d" style="margin:0">${esc(dayLabel(s))}</div><h2 style="margin:6px 0 0">Zone ${esc(s.zone)}</h2><div class="d">${esc(z?.place ?? '')}</div></div>
<div class="kv"><span class="k">Vehicle</span><span class="v">${esc(vLabel(v, s.plate))}</span></div>
<div class="kv"><span class="k">Parked</span><span class="v">${clock(s.startMin)} &ndash; ${clock(end)}</span></div>
<div class="kv"><span class="k">Duration</span><span class="v">${minutesLabel(totalMin(s))}</span></div>
<div class="kv"><span class="k">Parking</span><span class="v">${money(parkingCents(z?.rate ?? 0, totalMin(s)))}</span></div>
<div class="kv"><span class="k">Fees</span><span class="v">${money(SERVICE_FEE_CENTS * (1 + s.extensions.length))}</span></div>
<div class="kv total"><span class="k">Total</span><span class="v">${money(sessionCents(s, z))}</span></div>
<div class="kv"><span class="k">Paid with</span><span class="v">${esc(CARD)}</span></div>
<div class="kv"><span class="k">Receipt</span><span class="v" id="sent">${esc(sent)}</span></div>
<button class="primary" onclick="show('email')">Email receipt</button><div class="spacer"></div>${bottomNav(ctx, 'sessions')}
${confirmDialog('email', 'Email this receipt?', `We'll send the receipt for Zone ${s.zone} on ${dayLabel(s)} to ${EMAIL}.`, 'Send', 'send()')}
${t === 'sent' ? toast('Receipt sent') : ''}${menu(ctx)}`;
  const script = `function send(){api('email',{id:${s.id}}).then(r=>{if(r.ok)location.replace(BASE+'/session/${s.id}?toast=sent')})}`;
  return renderPage({ title: 'Receipt', css: CSS, body, ctx, script });
}

function sessionsPage(state: ParkingState, ctx: AppContext, t: string): AppResponse {
  const now = running(state).sort((a, b) => endMin(a) - endMin(b));
  const nowRows = now
    .map((s) => {
      const v = vehicleOf(state, s.plate);
      return `<a class="row" href="${ctx.base}/session/${s.id}"><div class="zc">${esc(s.zone)}</div><div class="info"><div class="t">Zone ${esc(s.zone)}</div><div class="s">${esc(v?.name ?? s.plate)} &middot; ends at ${clock(
        endMin(s),
      )}</div></div><div class="price">${leftLabel(s)}<div class="muted">left</div></div></a>`;
    })
    .join('');
  const past = state.sessions.filter((s) => !s.active);
  const pastRows = [...past.filter((s) => s.stopped).reverse(), ...past.filter((s) => !s.stopped)]
    .map(
      (s) =>
        `<a class="row past" href="${ctx.base}/session/${s.id}"><div class="info"><div class="t">Zone ${esc(s.zone)}</div><div class="s">${esc(dayLabel(s))} &middot; ${clock(s.startMin)} &middot; ${minutesLabel(
          totalMin(s),
        )}</div></div><div class="price">${money(sessionCents(s, zoneOf(state, s.zone)))}</div></a>`,
    )
    .join('');
  const body = `${appbar('Sessions')}
<div class="section">Parked now</div>${nowRows || `<div class="none">You're not parked anywhere right now.</div>`}
<div class="section">Past sessions</div>${pastRows}<div class="spacer"></div>${bottomNav(ctx, 'sessions')}${menu(ctx)}
${t === 'stopped' ? toast('Parking stopped') : ''}`;
  return renderPage({ title: 'Sessions', css: CSS, body, ctx, root: true });
}

function accountPage(state: ParkingState, ctx: AppContext): AppResponse {
  const body = `${appbar('Account')}
<div class="row"><div class="av" style="background:${ACCENT}">AK</div><div class="info"><div class="t">Alex Kim</div><div class="s">${esc(EMAIL)}</div></div></div>
<div class="section">Parking</div>
<a class="row" href="${ctx.base}/vehicles"><div class="info"><div class="t">Vehicles</div><div class="s">${state.vehicles.length} vehicles &middot; default ${esc(
    state.vehicles.find((v) => v.isDefault)?.name ?? '',
  )}</div></div><span class="muted">&rsaquo;</span></a>
<div class="row"><div class="info"><div class="t">Payment methods</div><div class="s">${esc(CARD)}</div></div></div>
<div class="row"><div class="info"><div class="t">Reminders</div><div class="s">10 minutes before parking ends</div></div></div>
<div class="row"><div class="info"><div class="t">Receipts</div><div class="s">Sent to ${esc(EMAIL)}</div></div></div>
<div class="section">Support</div>
<div class="row"><div class="info"><div class="t">Dispute a citation</div><div class="s">Contact the city's parking office</div></div></div>
<div class="row"><div class="info"><div class="t">Help</div><div class="s">How zones, limits and fees work</div></div></div>
<div class="row"><div class="info"><div class="t">App version</div><div class="s">5.12.0</div></div></div>
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true });
}

function vehiclesPage(state: ParkingState, ctx: AppContext, addedId: number): AppResponse {
  const added = state.vehicles.find((v) => v.id === addedId && v.added);
  const rows = state.vehicles
    .map(
      (v) =>
        `<div class="row"><div class="info"><div class="t">${esc(v.name)}${v.isDefault ? '<span class="badge">Default</span>' : ''}</div><div class="s">${esc(v.plate)} &middot; ${esc(
          v.region,
        )}</div></div></div>`,
    )
    .join('');
  const body = `${appbar('Vehicles', { back: true })}
${added ? `<div class="card ok"><h2>${esc(added.name)} added</h2><div class="d">${esc(added.plate)} (${esc(added.region)}) was added to your account.</div></div>` : ''}
<div class="section">Your vehicles (${state.vehicles.length})</div>${rows}
<a class="primary" href="${ctx.base}/vehicles/new">Add vehicle</a><div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Vehicles', css: CSS, body, ctx });
}

function vehicleFormPage(ctx: AppContext): AppResponse {
  const body = `${appbar('Add vehicle', { back: true, menu: false })}
<div class="field" id="f-plate"><label for="plate">Licence plate</label><input id="plate" type="text" placeholder="e.g. 7ABC123" autocomplete="off" autocapitalize="characters"><div class="hint">Letters and numbers only, exactly as on the plate</div><div class="ferr" id="e-plate"></div></div>
<div class="field" id="f-region"><label>State</label><button class="pick" onclick="show('regions')"><span id="region-v">${esc(DEFAULT_REGION)}</span><span>&#9662;</span></button><div class="ferr" id="e-region"></div></div>
<div class="field" id="f-name"><label for="name">Vehicle name</label><input id="name" type="text" placeholder="e.g. Red Jeep" autocomplete="off"><div class="hint">How it shows up when you pick a vehicle</div><div class="ferr" id="e-name"></div></div>
<button class="primary" onclick="save()">Save vehicle</button><div class="spacer"></div>
${pickerDialog('regions', 'State', REGIONS, DEFAULT_REGION, 'pickRegion')}`;
  const script = `let REGION=${JSON.stringify(DEFAULT_REGION)};
function pickRegion(v){REGION=v;document.getElementById('region-v').textContent=v;for(const o of document.querySelectorAll('#regions .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('regions')}
function save(){const v=id=>document.getElementById(id).value;
 for(const k of ['plate','region','name']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 api('vehicle',{plate:v('plate'),region:REGION,name:v('name')}).then(r=>{if(r.ok){location.replace(BASE+'/vehicles?added='+r.id);return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Add vehicle', css: CSS, body, ctx, script });
}

function handleApi(state: ParkingState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  switch (action) {
    case 'check':
    case 'start': {
      const z = zoneOf(state, str(b.zone));
      if (!z) return json({ ok: false, error: 'unknown zone' }, 404);
      const vid = Number(b.vehicle);
      const minutes = Number(b.minutes);
      const errors = startErrors(state, z, vid, minutes);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      if (action === 'check') return json({ ok: true });
      const v = state.vehicles.find((x) => x.id === vid) as Vehicle;
      const id = Math.max(...state.sessions.map((s) => s.id)) + 1;
      state.sessions.push({
        id,
        zone: z.code,
        plate: v.plate,
        day: 'June 13',
        weekday: 'Fri',
        startMin: NOW_MIN,
        durationMin: minutes,
        extensions: [],
        active: true,
        stopped: false,
        started: true,
        emailedBefore: false,
        emailed: 0,
      });
      return json({ ok: true, id });
    }
    case 'extend': {
      const s = state.sessions.find((x) => x.id === Number(b.id));
      if (!s || !s.active) return json({ ok: false, error: 'This session has ended' }, 400);
      const ext = EXTENSIONS.find(([, m]) => m === Number(b.minutes));
      if (!ext) return json({ ok: false, error: 'Choose how much time to add' }, 400);
      if (!extensionsAllowed(s.zone, totalMin(s)).includes(ext[0])) return json({ ok: false, error: 'That would go over the zone limit' });
      s.extensions.push(ext[1]);
      return json({ ok: true, ends: clock(endMin(s)) });
    }
    case 'stop': {
      const s = state.sessions.find((x) => x.id === Number(b.id));
      if (!s || !s.active) return json({ ok: false, error: 'This session has ended' }, 400);
      s.active = false;
      s.stopped = true;
      return json({ ok: true });
    }
    case 'email': {
      const s = state.sessions.find((x) => x.id === Number(b.id));
      if (!s || s.active) return json({ ok: false, error: 'No receipt yet' }, 400);
      s.emailed += 1;
      return json({ ok: true });
    }
    case 'vehicle': {
      const plate = normPlate(str(b.plate));
      const region = str(b.region) || DEFAULT_REGION;
      const name = str(b.name).trim().replace(/\s+/g, ' ');
      const errors: Record<string, string> = {};
      const problem = plateProblem(plate, region, state.vehicles);
      if (problem) errors.plate = problem;
      if (!REGIONS.includes(region)) errors.region = 'Choose the state on the plate';
      if (!name) errors.name = 'Give the vehicle a name';
      else if (name.length > NICKNAME_MAX) errors.name = `Keep the name under ${NICKNAME_MAX} characters`;
      else if (state.vehicles.some((v) => v.name.toLowerCase() === name.toLowerCase())) errors.name = 'You already have a vehicle with this name';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const id = Math.max(...state.vehicles.map((v) => v.id)) + 1;
      state.vehicles.push({ id, name, plate, region, isDefault: false, added: true });
      return json({ ok: true, id });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleParking(state: ParkingState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return parkPage(state, ctx);
  if (head === 'sessions') return sessionsPage(state, ctx, t);
  if (head === 'account') return accountPage(state, ctx);
  if (head === 'review') return reviewPage(state, ctx, req.query);
  if (head === 'vehicles' && arg === undefined) return vehiclesPage(state, ctx, Number(req.query.get('added')));
  if (head === 'vehicles' && arg === 'new') return vehicleFormPage(ctx);
  const zone = head === 'zone' && arg ? zoneOf(state, arg) : undefined;
  if (zone) return zonePage(state, ctx, zone);
  const s = head === 'session' ? state.sessions.find((x) => x.id === Number(arg)) : undefined;
  if (s) return s.active ? activeSessionPage(state, ctx, s, t) : receiptPage(state, ctx, s, t);
  return notFound(CSS);
}
