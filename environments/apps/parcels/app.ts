import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  canRedirect,
  canReschedule,
  canSafePlace,
  CARD,
  dayLabel,
  HOME_ADDRESS,
  HOME_CITY,
  isSaturday,
  money,
  NICKNAME_MAX,
  normTracking,
  pointTakes,
  priceCents,
  rescheduleDays,
  SAFE_PLACES,
  SATURDAY_FEE_CENTS,
  sendErrors,
  SERVICES,
  shortDay,
  SIZES,
  titleOf,
  TRACKABLE,
  TRACKING_RE,
  ZIPS,
  type Draft,
  type Parcel,
  type ParcelState,
  type PickupPoint,
} from './state.js';

const ACCENT = '#8a4b14';
const CSS =
  kitCss(ACCENT, '#f8e3cf') +
  `
body{background:#f6f3ef}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #e4dcd2}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#7a6e62}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.trackbar{display:flex;align-items:center;gap:10px;margin:12px;height:54px;padding:0 18px;border-radius:27px;background:#fff;border:2px solid #e0d5c8;font-size:18px;color:#7a6e62}
.trackbar b{color:${ACCENT};font-size:22px}
.seg{display:flex;gap:10px;margin:0 12px 8px}
.seg a{flex:1;display:flex;align-items:center;justify-content:center;height:48px;border:2px solid #d8cfc4;border-radius:10px;font-size:17px;font-weight:bold;background:#fff;color:#4a4037}
.seg a.on{border-color:${ACCENT};background:#f8e3cf;color:#3d2408}
.banner{margin:4px 12px 8px;padding:14px 16px;border-radius:14px;background:#3d2408;color:#fff;font-size:16px}
.banner b{font-size:18px}
.pk{display:flex;gap:14px;align-items:center;min-height:80px;padding:12px 16px;background:#fff;border-bottom:1px solid #ece6de}
.pk .box{width:46px;height:46px;border-radius:10px;flex:none;display:flex;align-items:center;justify-content:center;font-size:15px;font-weight:bold;background:#f8e3cf;color:${ACCENT}}
.pk .info{flex:1;min-width:0}
.pk .n{font-size:18px;font-weight:bold;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.pk .s{font-size:15px;color:#5f554b;margin-top:3px}
.pk .s.hot{color:#2b8a3e;font-weight:bold}
.pk .s.pt{color:#1864ab;font-weight:bold}
.card{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #e4dcd2}
.card h2{margin:0 0 6px;font-size:23px}
.card .d{font-size:16px;color:#4f463d;margin-top:4px}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.note{background:#fff9db;border-color:#ffe066}
.steps{display:flex;margin:4px 12px 8px;gap:4px}
.steps div{flex:1;text-align:center;font-size:12px;color:#8a8178;padding-top:10px;border-top:5px solid #e4dcd2}
.steps div.done{border-top-color:${ACCENT};color:#3d2408;font-weight:bold}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #ece6de;font-size:17px}
.kv .k{color:#5f554b;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv.total{font-size:19px}
.ev{display:flex;gap:14px;padding:12px 16px;background:#fff;border-bottom:1px solid #f1ece6}
.ev .w{width:104px;flex:none;font-size:14px;color:#5f554b}
.ev .e{font-size:16px}
.ev .e .s{font-size:14px;color:#7a6e62;margin-top:2px}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:74px;padding:12px 16px;background:#fff;border-bottom:1px solid #ece6de;text-align:left}
.opt .info{flex:1}
.opt .t{font-size:18px;font-weight:bold}
.opt .s{font-size:15px;color:#5f554b;margin-top:3px}
.opt.off{background:#f8f6f3}
.opt.off .t{color:#a39a90}
.opt.off .s{color:#c0392b}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.opt .go{font-size:22px;color:#a39a90}
.tag{flex:none;font-size:13px;font-weight:bold;border-radius:10px;padding:4px 9px;background:#f8e3cf;color:${ACCENT}}
.tag.lock{background:#e7f5ff;color:#1864ab}
.chips{display:flex;gap:8px;padding:6px 12px 10px}
.intro{padding:14px 16px 4px;font-size:16px;color:#4f463d}
.primary[disabled]{background:#d9b99a!important}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.sheet h2{margin:8px 20px 4px;font-size:21px}
.sheet p{margin:6px 20px;font-size:16px;color:#4f463d}
.sheet .primary{margin:14px 16px 4px;width:calc(100% - 32px)}
.sheet .plain{text-align:center;color:${ACCENT};font-weight:bold}
.field .pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
.field .pick.unset{color:#868e96}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.field .hint{font-size:15px;color:#5f554b;margin-top:6px;min-height:18px}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.dialog .opt{min-height:56px;padding:10px 4px;border-bottom:none}
.qr{width:180px;height:180px;margin:10px auto;display:grid;grid-template-columns:repeat(12,1fr);border:10px solid #fff;background:#fff;box-shadow:0 0 0 1px #ddd}
.qr i{display:block}
.qr i.b{background:#111}
.from{font-size:15px;color:#5f554b;padding:10px 16px 0}
.field.col{display:flex;flex-direction:column}
.field.col label{order:-1}
.sizes .opt{border:2px solid #e4dcd2;border-radius:12px;margin:0 0 8px;min-height:64px}
.sizes .opt.sel{border-color:${ACCENT};background:#fdf6ef}
`;

type Tab = 'packages' | 'send' | 'points' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'packages', label: 'Packages', glyph: '&#9635;', href: `${ctx.base}/` },
      { id: 'send', label: 'Send', glyph: '&#10148;', href: `${ctx.base}/send` },
      { id: 'points', label: 'Points', glyph: '&#9906;', href: `${ctx.base}/points` },
      { id: 'account', label: 'Account', glyph: '&#9786;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Track a package', `${ctx.base}/track`],
    ['Delivered packages', `${ctx.base}/delivered`],
    ['Help', `${ctx.base}/account`],
  ]);

const pointOf = (st: ParcelState, id: number): PickupPoint | undefined => st.points.find((p) => p.id === id);
const last4 = (t: string): string => `••• ${t.slice(-4)}`;
const miles = (pt: PickupPoint): string => `${(pt.tenths / 10).toFixed(1)} mi`;
const sizeLabel = (p: Parcel): string => `${p.size} · ${p.weightLb} lb`;

/** The status line of a package in the lists. */
function statusLine(st: ParcelState, p: Parcel): { text: string; cls: string } {
  if (p.status === 'delivered') return { text: `Delivered ${shortDay(p.eta)} · ${p.leftAt}`, cls: '' };
  if (p.status === 'out') return { text: 'Out for delivery · by 7 PM today', cls: 'hot' };
  if (p.status === 'label') return { text: `Label created · expected ${shortDay(p.eta)}`, cls: '' };
  if (p.plan.kind === 'point') return { text: `Going to ${pointOf(st, p.plan.pointId)?.name ?? 'a ParcelHub Point'}`, cls: 'pt' };
  return { text: `Arriving ${shortDay(p.plan.day)}${p.plan.day === 1 ? ' (tomorrow)' : ''}`, cls: '' };
}
const sortKey = (p: Parcel): number => (p.status === 'out' ? -1 : p.plan.kind === 'home' ? p.plan.day : p.eta + 1);

function listRow(st: ParcelState, ctx: AppContext, p: Parcel): string {
  const s = statusLine(st, p);
  return `<a class="pk" href="${ctx.base}/p/${p.id}"><div class="box">${esc(p.size === 'Oversize' ? 'XL' : p.size[0] ?? '')}</div><div class="info"><div class="n">${esc(titleOf(p))}</div><div class="s ${s.cls}">${esc(
    s.text,
  )}</div></div><span class="muted">${esc(last4(p.tracking))}</span></a>`;
}

function packagesPage(st: ParcelState, ctx: AppContext, delivered: boolean): AppResponse {
  const incoming = st.parcels.filter((p) => p.status !== 'delivered').sort((a, b) => sortKey(a) - sortKey(b) || a.id - b.id);
  const done = st.parcels.filter((p) => p.status === 'delivered').sort((a, b) => b.eta - a.eta);
  const today = incoming.filter((p) => p.status === 'out').length;
  const seg = `<div class="seg"><a class="${delivered ? '' : 'on'}" href="${ctx.base}/">Incoming (${incoming.length})</a><a class="${delivered ? 'on' : ''}" href="${ctx.base}/delivered">Delivered</a></div>`;
  const rows = delivered
    ? `<div class="section">Last 30 days</div>${done.map((p) => listRow(st, ctx, p)).join('')}`
    : `${today ? `<div class="banner"><b>${today} arriving today</b><br>Keep an eye on the door, the driver is on the way.</div>` : ''}${incoming.map((p) => listRow(st, ctx, p)).join('')}`;
  const body = `${appbar('ParcelHub')}
<a class="trackbar" href="${ctx.base}/track"><b>+</b>Track a package</a>${seg}${rows}
<div class="spacer"></div>${bottomNav(ctx, 'packages')}${menu(ctx)}`;
  return renderPage({ title: 'ParcelHub', css: CSS, body, ctx, root: true });
}

const STEPS = ['Label created', 'Picked up', 'In transit', 'Out for delivery', 'Delivered'];

function history(p: Parcel): string {
  const ev: [string, string, string][] = [];
  if (p.status === 'delivered') ev.push([shortDay(p.eta), 'Delivered', `Left at ${p.leftAt}`], [shortDay(p.eta), 'Out for delivery', 'Portland, OR']);
  if (p.status === 'out') ev.push(['Today 7:02 AM', 'Out for delivery', 'Portland, OR']);
  if (p.status !== 'label') {
    ev.push(
      [p.status === 'transit' ? 'Today 4:18 AM' : shortDay(Math.min(p.eta, 0) - 1), 'Arrived at facility', p.status === 'transit' && p.eta > 2 ? 'Salt Lake City, UT' : 'Portland, OR'],
      [shortDay(Math.min(p.eta, 0) - 2), 'Departed facility', 'Reno, NV'],
      [shortDay(Math.min(p.eta, 0) - 3), 'Picked up', 'Sacramento, CA'],
    );
  }
  ev.push([shortDay(Math.min(p.eta, 0) - 4), 'Label created', `${p.sender} is preparing the package`]);
  return ev.map(([w, e, s]) => `<div class="ev"><div class="w">${esc(w)}</div><div class="e">${esc(e)}<div class="s">${esc(s)}</div></div></div>`).join('');
}

function parcelPage(st: ParcelState, ctx: AppContext, p: Parcel, t: string): AppResponse {
  const step = p.status === 'delivered' ? 5 : p.status === 'out' ? 4 : p.status === 'transit' ? 3 : 1;
  const pt = p.plan.kind === 'point' ? pointOf(st, p.plan.pointId) : undefined;
  let head: string;
  if (p.status === 'delivered') head = `<h2>Delivered</h2><div class="d">${esc(dayLabel(p.eta))} &middot; left at ${esc(p.leftAt)}</div>`;
  else if (p.status === 'out') head = '<h2>Out for delivery</h2><div class="d">Today by 7 PM</div>';
  else if (p.status === 'label') head = `<h2>Label created</h2><div class="d">Expected ${esc(dayLabel(p.eta))}, once ${esc(p.sender)} hands it over</div>`;
  else if (pt) head = `<h2>Going to a ParcelHub Point</h2><div class="d">${esc(pt.name)}</div><div class="d">Ready for pickup ${esc(dayLabel(p.eta + 1))}</div>`;
  else head = `<h2>Arriving ${esc(dayLabel(p.plan.kind === 'home' ? p.plan.day : p.eta))}</h2><div class="d">By 8 PM${p.signature ? ' &middot; signature needed' : ''}</div>`;
  const done =
    t === 'day' && p.plan.kind === 'home'
      ? `<div class="card ok"><h2>Delivery day changed</h2><div class="d">We'll deliver it on ${esc(dayLabel(p.plan.day))}.</div></div>`
      : t === 'point' && pt
        ? `<div class="card ok"><h2>Redirect confirmed</h2><div class="d">We'll text you when it's ready at ${esc(pt.name)}.</div></div>`
        : t === 'added'
          ? `<div class="card ok"><h2>Added to your packages</h2><div class="d">You'll get updates for ${esc(p.tracking)}.</div></div>`
          : '';
  let action: string;
  if (p.status === 'transit') action = `<a class="primary" href="${ctx.base}/p/${p.id}/change">Change delivery</a>`;
  else if (p.status === 'out') action = '<div class="card note"><div class="d" style="margin:0">The driver already has this package, so the delivery can no longer be changed.</div></div>';
  else if (p.status === 'label') action = `<div class="card note"><div class="d" style="margin:0">You can change the delivery once ${esc(p.sender)} hands the package to us.</div></div>`;
  else action = '<div class="kv"><span class="k">Proof of delivery</span><span class="v">Photo on file</span></div>';
  const body = `${appbar(titleOf(p), { back: true })}${done}
<div class="card">${head}</div>
<div class="steps">${STEPS.map((s, i) => `<div class="${i < step ? 'done' : ''}">${esc(s)}</div>`).join('')}</div>
<div class="kv"><span class="k">Tracking number</span><span class="v">${esc(p.tracking)}</span></div>
<div class="kv"><span class="k">From</span><span class="v">${esc(p.sender)}</span></div>
<div class="kv"><span class="k">Size</span><span class="v">${esc(sizeLabel(p))}</span></div>
<div class="kv"><span class="k">Deliver to</span><span class="v">${esc(pt ? pt.name : `Home, ${HOME_ADDRESS}`)}</span></div>
${p.safePlace ? `<div class="kv"><span class="k">Safe place</span><span class="v">${esc(p.safePlace)}</span></div>` : ''}
${p.perishable ? '<div class="kv"><span class="k">Handling</span><span class="v">Perishable, keep cool</span></div>' : ''}
${action}
<div class="section">Tracking history</div>${history(p)}
<div class="spacer"></div>${bottomNav(ctx, 'packages')}${menu(ctx)}
${t === 'safe' ? toast(`We'll leave it at: ${p.safePlace}`) : t === 'day' ? toast('Delivery day updated') : t === 'point' ? toast('Package redirected') : ''}`;
  return renderPage({ title: titleOf(p), css: CSS, body, ctx });
}

function changePage(st: ParcelState, ctx: AppContext, p: Parcel): AppResponse {
  const opt = (title: string, sub: string, href: string | undefined): string =>
    href
      ? `<a class="opt" href="${href}"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div><span class="go">&rsaquo;</span></a>`
      : `<div class="opt off" aria-disabled="true"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div></div>`;
  const pt = p.plan.kind === 'point' ? pointOf(st, p.plan.pointId) : undefined;
  const base = `${ctx.base}/p/${p.id}`;
  const body = `${appbar('Change delivery', { back: true })}
<div class="card"><h2>${esc(titleOf(p))}</h2><div class="d">${esc(statusLine(st, p).text)}</div><div class="d">${esc(p.tracking)}</div></div>
<div class="section">What would you like to do?</div>
${opt('Deliver on another day', canReschedule(p) ? (pt ? 'Cancel the redirect and pick a day for your door' : 'Pick a day up to a week later') : 'Perishable packages are delivered as soon as possible', canReschedule(p) ? `${base}/day` : undefined)}
${opt('Pick up at a ParcelHub Point', canRedirect(p) ? 'Collect it from a store or locker near you' : p.perishable ? 'Perishable packages go to your door only' : 'Too large for ParcelHub Points', canRedirect(p) ? `${base}/points` : undefined)}
${opt('Leave in a safe place', canSafePlace(p) ? 'No need to be home; we leave it where you say' : p.signature ? 'This package needs a signature' : 'Only for deliveries to your door', canSafePlace(p) ? `${base}/safe` : undefined)}
<div class="intro">Changes are free, except Saturday delivery (${money(SATURDAY_FEE_CENTS)}).</div>
<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Change delivery', css: CSS, body, ctx });
}

function dayPage(st: ParcelState, ctx: AppContext, p: Parcel): AppResponse {
  const current = p.plan.kind === 'home' ? p.plan.day : -1;
  const pt = p.plan.kind === 'point' ? pointOf(st, p.plan.pointId) : undefined;
  const days = rescheduleDays(p);
  const rows = [...days, ...(current >= 0 ? [current] : [])]
    .sort((a, b) => a - b)
    .map((d) =>
      d === current
        ? `<div class="opt off" aria-disabled="true"><span class="rad"></span><div class="info"><div class="t">${esc(dayLabel(d))}</div><div class="s" style="color:#5f554b">Current day</div></div></div>`
        : `<button class="opt" role="radio" aria-checked="false" data-d="${d}" data-label="${esc(dayLabel(d))}" onclick="pick(this)"><span class="rad"></span><div class="info"><div class="t">${esc(dayLabel(d))}</div><div class="s">${
            isSaturday(d) ? `Saturday delivery &middot; ${money(SATURDAY_FEE_CENTS)}` : 'Free'
          }</div></div></button>`,
    )
    .join('');
  const now = pt ? `Now going to ${pt.name}` : `Now arriving ${dayLabel(current)}`;
  const body = `${appbar('Delivery day', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#1f2328">Choose a new delivery day</b><br>${esc(titleOf(p))} &middot; ${esc(now)}</div>
<div style="margin-top:10px">${rows}</div>
<button class="primary" id="go" disabled onclick="ask()">Confirm new day</button><div class="spacer"></div>
${confirmDialog('confirm', 'Change delivery day?', '', 'Change day', 'save()')}`;
  const script = `let D=-1,L='';const NOW=${JSON.stringify(pt ? `instead of going to ${pt.name}` : `instead of ${dayLabel(current)}`)};const NAME=${JSON.stringify(titleOf(p))};
function pick(el){D=Number(el.dataset.d);L=el.dataset.label;for(const o of document.querySelectorAll('button.opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}document.getElementById('go').disabled=false}
function ask(){if(D<0)return;const sat=L.startsWith('Saturday');document.getElementById('confirm-text').textContent='Your '+NAME+' package will arrive on '+L+' '+NOW+'.'+(sat?' A ${money(SATURDAY_FEE_CENTS)} Saturday fee will be charged to ${CARD}.':'');show('confirm')}
let busy=false;function save(){if(busy)return;busy=true;api('reschedule',{id:${p.id},day:D}).then(r=>{busy=false;if(r.ok)location.replace(BASE+'/p/${p.id}?toast=day')})}`;
  return renderPage({ title: 'Delivery day', css: CSS, body, ctx, script });
}

function pointRows(st: ParcelState, p: Parcel | undefined): string {
  return [...st.points]
    .sort((a, b) => a.tenths - b.tenths || a.id - b.id)
    .map((pt) => {
      const tag = `<span class="tag${pt.kind === 'locker' ? ' lock' : ''}">${pt.kind === 'locker' ? 'Locker' : 'Store'}</span>`;
      const info = `<div class="info"><div class="t">${esc(pt.name)}</div><div class="s" style="color:#5f554b">${esc(pt.address)} &middot; ${miles(pt)}</div><div class="s" style="color:#5f554b">${esc(pt.hours)}</div>`;
      if (!p) return `<div class="opt" data-kind="${pt.kind}">${info}${pt.full ? '<div class="s" style="color:#c0392b;font-weight:bold">Full right now</div>' : ''}</div>${tag}</div>`;
      if (!pointTakes(pt, p))
        return `<div class="opt off" aria-disabled="true" data-kind="${pt.kind}">${info}<div class="s" style="font-weight:bold">${pt.full ? 'Full right now' : 'Too big for lockers'}</div></div>${tag}</div>`;
      return `<button class="opt" data-kind="${pt.kind}" data-id="${pt.id}" data-name="${esc(pt.name)}" data-addr="${esc(`${pt.address} · ${miles(pt)}`)}" data-hours="${esc(pt.hours)}" onclick="pickPt(this)">${info}</div>${tag}</button>`;
    })
    .join('');
}

const chips = `<div class="chips"><button class="chip on" data-f="all" onclick="filt(this)">All</button><button class="chip" data-f="store" onclick="filt(this)">Stores</button><button class="chip" data-f="locker" onclick="filt(this)">Lockers</button></div>`;
const chipJs = `function filt(el){for(const c of document.querySelectorAll('.chips .chip'))c.classList.toggle('on',c===el);const f=el.dataset.f;for(const r of document.querySelectorAll('#pts .opt'))r.hidden=f!=='all'&&r.dataset.kind!==f}`;

function redirectPage(st: ParcelState, ctx: AppContext, p: Parcel): AppResponse {
  const body = `${appbar('Choose a ParcelHub Point', { back: true, menu: false })}
<div class="intro">ParcelHub Points near ${esc(HOME_ADDRESS)}. Stores hold packages for 7 days; lockers take Small and Medium packages for 3 days.</div>
${chips}<div id="pts">${pointRows(st, p)}</div><div class="spacer"></div>
<div id="pt" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('pt')"><div class="sheet" role="dialog" aria-label="Deliver here"><h2 id="pt-name"></h2>
<p id="pt-addr"></p><p id="pt-hours"></p><p id="pt-how"></p>
<button class="primary" id="pt-ok" onclick="go()">Deliver here</button><button class="plain" onclick="hide('pt')">Not now</button></div></div>`;
  const script = `${chipJs}let P=0;
function pickPt(el){P=Number(el.dataset.id);document.getElementById('pt-name').textContent=el.dataset.name;document.getElementById('pt-addr').textContent=el.dataset.addr;
 document.getElementById('pt-hours').textContent=el.dataset.hours;document.getElementById('pt-how').textContent=el.dataset.kind==='locker'?"We'll text you a code to open the locker. Collect within 3 days.":'Bring a photo ID. The store holds it for 7 days.';show('pt')}
let busy=false;function go(){if(busy||!P)return;busy=true;api('redirect',{id:${p.id},point:P}).then(r=>{busy=false;if(r.ok)location.replace(BASE+'/p/${p.id}?toast=point')})}`;
  return renderPage({ title: 'Choose a ParcelHub Point', css: CSS, body, ctx, script });
}

function safePage(ctx: AppContext, p: Parcel): AppResponse {
  const current = p.safePlace || (SAFE_PLACES[0] ?? '');
  const rows = SAFE_PLACES.map(
    (s) =>
      `<button class="opt${s === current ? ' sel' : ''}" role="radio" aria-checked="${s === current}" data-v="${esc(s)}" onclick="pick(this)"><span class="rad"></span><div class="info"><div class="t">${esc(s)}</div></div></button>`,
  ).join('');
  const body = `${appbar('Safe place', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#1f2328">Where should we leave it?</b><br>The driver takes a photo when they leave it. You're responsible for it after that.</div>
<div style="margin-top:10px">${rows}</div><div class="error" id="err"></div>
<button class="primary" onclick="save()">Save</button><div class="spacer"></div>`;
  const script = `let V=${JSON.stringify(current)};
function pick(el){V=el.dataset.v;for(const o of document.querySelectorAll('button.opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}document.getElementById('err').textContent=''}
function save(){if(!V){document.getElementById('err').textContent='Choose a place';return}api('safe',{id:${p.id},place:V}).then(r=>{if(r.ok)location.replace(BASE+'/p/${p.id}?toast=safe')})}`;
  return renderPage({ title: 'Safe place', css: CSS, body, ctx, script });
}

function trackPage(ctx: AppContext): AppResponse {
  const body = `${appbar('Track a package', { back: true, menu: false })}
<div class="intro">Got a tracking number from a store or a friend? Add it here to follow the package and change its delivery.</div>
<div class="field col" id="f-tracking"><input id="tracking" type="text" autocomplete="off" autocapitalize="characters" placeholder="e.g. PH1234567890"><label for="tracking">Tracking number</label><div class="ferr" id="e-tracking"></div></div>
<div class="field col" id="f-nickname"><input id="nickname" type="text" autocomplete="off" maxlength="${NICKNAME_MAX}" placeholder="e.g. Birthday gift"><label for="nickname">Name this package (optional)</label><div class="hint">Shown instead of the sender's name.</div><div class="ferr" id="e-nickname"></div></div>
<button class="primary" onclick="add()">Track</button><div class="spacer"></div>`;
  const script = `let busy=false;function add(){if(busy)return;for(const k of ['tracking','nickname']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 busy=true;api('track',{tracking:document.getElementById('tracking').value,nickname:document.getElementById('nickname').value}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/p/'+r.id+'?toast=added');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Track a package', css: CSS, body, ctx, script });
}

function sendPage(st: ParcelState, ctx: AppContext): AppResponse {
  const d = st.draft;
  const sizeOpts = SIZES.map(
    ([n, sub]) =>
      `<button class="opt${n === d.size ? ' sel' : ''}" role="radio" aria-checked="${n === d.size}" data-v="${esc(n)}" onclick="pickSize(this)"><span class="rad"></span><div class="info"><div class="t">${esc(n)}</div><div class="s">${esc(sub)}</div></div></button>`,
  ).join('');
  const field = (id: string, label: string, value: string, extra = ''): string =>
    `<div class="field col" id="f-${id}"><input id="${id}" type="text" autocomplete="off" value="${esc(value)}" ${extra}><label for="${id}">${esc(label)}</label>${id === 'zip' ? `<div class="hint" id="city">${esc(ZIPS[d.zip] ?? '')}</div>` : ''}<div class="ferr" id="e-${id}"></div></div>`;
  const body = `${appbar('Send a package')}
<div class="from">From: Alex Kim, ${esc(HOME_ADDRESS)}, ${esc(HOME_CITY)}</div>
<div class="section">Send to</div>
${field('recipient', "Recipient's full name", d.recipient)}
${field('street', 'Street address', d.street, 'placeholder="Number and street"')}
${field('apt', 'Apt, suite, unit (optional)', d.apt)}
${field('zip', 'ZIP code', d.zip, 'inputmode="numeric" maxlength="5" oninput="city(this.value)"')}
<div class="section">Package</div>
<div class="field" id="f-size"><label>Package size</label><div class="sizes" role="radiogroup" aria-label="Package size">${sizeOpts}</div><div class="ferr" id="e-size"></div></div>
<button class="primary" onclick="next()">Continue</button><div class="spacer"></div>${bottomNav(ctx, 'send')}${menu(ctx)}`;
  const script = `const ZIPS=${JSON.stringify(ZIPS)};let SIZE=${JSON.stringify(d.size)};
function city(z){document.getElementById('city').textContent=z.length===5?(ZIPS[z]||''):''}
function pickSize(el){SIZE=el.dataset.v;document.getElementById('e-size').textContent='';document.getElementById('f-size').classList.remove('bad');
 for(const o of document.querySelectorAll('.sizes .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function next(){const v=k=>document.getElementById(k).value;for(const k of ['recipient','street','zip','size']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 api('draft',{recipient:v('recipient'),street:v('street'),apt:v('apt'),zip:v('zip'),size:SIZE}).then(r=>{if(r.ok){location.href=BASE+'/send/service';return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Send a package', css: CSS, body, ctx, script, root: true });
}

const draftOk = (d: Draft): boolean => Object.keys(sendErrors(d)).length === 0;
const toLine = (d: Draft): string => `${d.recipient}, ${d.street}${d.apt ? `, ${d.apt}` : ''}, ${ZIPS[d.zip] ?? ''} ${d.zip}`;

function servicePage(st: ParcelState, ctx: AppContext): AppResponse {
  const d = st.draft;
  if (!draftOk(d)) return { status: 303, redirect: `${ctx.base}/send` };
  const rows = SERVICES.map(
    ([n, when]) =>
      `<button class="opt${n === d.service ? ' sel' : ''}" role="radio" aria-checked="${n === d.service}" data-v="${esc(n)}" onclick="pick(this)"><span class="rad"></span><div class="info"><div class="t">${esc(n)}</div><div class="s">${esc(
        when,
      )}</div></div><b style="font-size:18px">${money(priceCents(n, d.size))}</b></button>`,
  ).join('');
  const body = `${appbar('Choose a service', { back: true, menu: false })}
<div class="card"><div class="d" style="margin:0">To ${esc(toLine(d))}</div><div class="d">${esc(d.size)}</div></div>
<div class="section">How fast?</div>${rows}
<button class="primary" id="go" ${d.service ? '' : 'disabled'} onclick="next()">Continue</button><div class="spacer"></div>`;
  const script = `let S=${JSON.stringify(d.service)};
function pick(el){S=el.dataset.v;for(const o of document.querySelectorAll('button.opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}document.getElementById('go').disabled=false}
function next(){if(!S)return;api('service',{service:S}).then(r=>{if(r.ok)location.href=BASE+'/send/review'})}`;
  return renderPage({ title: 'Choose a service', css: CSS, body, ctx, script });
}

/** Business days: Ground 4, 2-Day 2, Overnight 1 (no Sunday deliveries). */
function arrives(service: string): number {
  let n = service === 'Overnight' ? 1 : service === '2-Day' ? 2 : 4;
  let d = 0;
  while (n > 0) {
    d += 1;
    if (!dayLabel(d).startsWith('Sunday') && !dayLabel(d).startsWith('Saturday')) n -= 1;
  }
  return d;
}

function reviewPage(st: ParcelState, ctx: AppContext): AppResponse {
  const d = st.draft;
  if (!draftOk(d) || !SERVICES.some(([n]) => n === d.service)) return { status: 303, redirect: `${ctx.base}/send` };
  const cents = priceCents(d.service, d.size);
  const body = `${appbar('Review and pay', { back: true, menu: false })}
<div class="kv"><span class="k">To</span><span class="v">${esc(d.recipient)}</span></div>
<div class="kv"><span class="k">Address</span><span class="v">${esc(d.street)}${d.apt ? `, ${esc(d.apt)}` : ''}<br>${esc(ZIPS[d.zip] ?? '')} ${esc(d.zip)}</span></div>
<div class="kv"><span class="k">Package</span><span class="v">${esc(d.size)}</span></div>
<div class="kv"><span class="k">Service</span><span class="v">${esc(d.service)}</span></div>
<div class="kv"><span class="k">Arrives by</span><span class="v">${esc(shortDay(arrives(d.service)))} if dropped off today</span></div>
<div class="kv total"><span class="k">Total</span><span class="v">${money(cents)}</span></div>
<div class="kv"><span class="k">Card</span><span class="v">${esc(CARD)}</span></div>
<div class="error" id="err"></div>
<button class="primary" onclick="pay()">Pay ${money(cents)}</button>
<a class="outline" href="${ctx.base}/send">Edit details</a><div class="spacer"></div>`;
  const script = `let busy=false;function pay(){if(busy)return;busy=true;api('pay',{}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/send/done/'+r.id);return}document.getElementById('err').textContent=r.error||'Payment failed'})}`;
  return renderPage({ title: 'Review and pay', css: CSS, body, ctx, script });
}

function qr(seed: string): string {
  let h = 0;
  for (const ch of seed) h = (h * 131 + ch.charCodeAt(0)) >>> 0;
  const cells: string[] = [];
  for (let i = 0; i < 144; i++) {
    h = (h * 1103515245 + 12345) >>> 0;
    const r = Math.floor(i / 12);
    const c = i % 12;
    const corner = (r < 3 && c < 3) || (r < 3 && c > 8) || (r > 8 && c < 3);
    cells.push(`<i class="${corner || (h >>> 16) % 2 ? 'b' : ''}"></i>`);
  }
  return `<div class="qr" aria-label="Drop-off code">${cells.join('')}</div>`;
}

function donePage(st: ParcelState, ctx: AppContext, id: number): AppResponse {
  const s = st.shipments.find((x) => x.id === id);
  if (!s) return { status: 303, redirect: `${ctx.base}/send` };
  const body = `${appbar('Label ready', { menu: false })}
<div class="card ok"><h2>Your label is ready</h2><div class="d">Show this code at any ParcelHub Point within 5 days. We'll print the label there.</div></div>
${qr(s.tracking)}
<div class="kv"><span class="k">Tracking number</span><span class="v">${esc(s.tracking)}</span></div>
<div class="kv"><span class="k">To</span><span class="v">${esc(s.recipient)}, ${esc(ZIPS[s.zip] ?? '')}</span></div>
<div class="kv"><span class="k">Service</span><span class="v">${esc(s.service)} &middot; ${money(s.cents)}</span></div>
<a class="primary" href="${ctx.base}/send">Done</a><a class="outline" href="${ctx.base}/points">Find a drop-off point</a><div class="spacer"></div>`;
  return renderPage({ title: 'Label ready', css: CSS, body, ctx });
}

function pointsPage(st: ParcelState, ctx: AppContext): AppResponse {
  const body = `${appbar('ParcelHub Points')}
<div class="intro">Drop off and pick up near ${esc(HOME_ADDRESS)}.</div>${chips}<div id="pts">${pointRows(st, undefined)}</div>
<div class="spacer"></div>${bottomNav(ctx, 'points')}${menu(ctx)}`;
  return renderPage({ title: 'ParcelHub Points', css: CSS, body, ctx, script: chipJs, root: true });
}

function accountPage(st: ParcelState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('Account')}
<div class="row"><div class="av" style="background:${ACCENT}">AK</div><div class="info"><div class="t">Alex Kim</div><div class="s">alex.kim@example.com</div></div></div>
<div class="section">Delivery</div>${row('Home address', `${HOME_ADDRESS}, ${HOME_CITY}`)}${row('Delivery preferences', 'Knock and wait; no default safe place')}${row(
    'Labels bought',
    st.shipments.length ? `${st.shipments.length} this month` : 'None this month',
  )}
<div class="section">Payment</div>${row('Card', CARD)}
<div class="section">Other</div>${row('Notifications', 'Text and push for every update')}${row('Help and support', 'Claims, missing packages, contact us')}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true });
}

function handleApi(st: ParcelState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  const p = st.parcels.find((x) => x.id === Number(b.id));
  switch (action) {
    case 'reschedule': {
      const day = Number(b.day);
      if (!p || !canReschedule(p)) return json({ ok: false, error: 'This delivery cannot be changed' }, 409);
      if (!rescheduleDays(p).includes(day)) return json({ ok: false, error: 'That day is not available' }, 409);
      p.plan = { kind: 'home', day };
      st.changes.push({ parcelId: p.id, kind: 'day', value: dayLabel(day), seq: st.seq });
      return json({ ok: true });
    }
    case 'redirect': {
      const pt = st.points.find((x) => x.id === Number(b.point));
      if (!p || !canRedirect(p)) return json({ ok: false, error: 'This delivery cannot be changed' }, 409);
      if (!pt || !pointTakes(pt, p)) return json({ ok: false, error: 'This point cannot take the package' }, 409);
      p.plan = { kind: 'point', pointId: pt.id };
      p.safePlace = '';
      st.changes.push({ parcelId: p.id, kind: 'point', value: pt.name, seq: st.seq });
      return json({ ok: true });
    }
    case 'safe': {
      const place = str(b.place);
      if (!p || !canSafePlace(p)) return json({ ok: false, error: 'This delivery cannot be changed' }, 409);
      if (!SAFE_PLACES.includes(place)) return json({ ok: false, error: 'Choose a place' }, 400);
      p.safePlace = place;
      st.changes.push({ parcelId: p.id, kind: 'safe', value: place, seq: st.seq });
      return json({ ok: true });
    }
    case 'track': {
      const tracking = normTracking(str(b.tracking));
      const nickname = str(b.nickname).trim().replace(/\s+/g, ' ');
      const errors: Record<string, string> = {};
      if (!tracking) errors.tracking = 'Enter a tracking number';
      else if (!TRACKING_RE.test(tracking)) errors.tracking = 'ParcelHub tracking numbers are PH followed by 10 digits';
      else if (st.parcels.some((x) => x.tracking === tracking)) errors.tracking = 'This package is already in your list';
      else if (!TRACKABLE.some(([t]) => t === tracking)) errors.tracking = "We can't find a package with this number. Check it and try again.";
      if (nickname.length > NICKNAME_MAX) errors.nickname = `Use ${NICKNAME_MAX} characters or fewer`;
      else if (nickname && st.parcels.some((x) => x.nickname.toLowerCase() === nickname.toLowerCase())) errors.nickname = 'Another package already has this name';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const found = TRACKABLE.find(([t]) => t === tracking);
      if (!found) return json({ ok: false, errors: { tracking: 'Not found' } });
      const [, sender, size, weightLb, status, eta] = found;
      const id = 401 + st.parcels.filter((x) => x.added).length;
      st.parcels.push({
        id,
        tracking,
        sender,
        nickname,
        size,
        weightLb,
        status,
        eta,
        plan: { kind: 'home', day: eta },
        signature: false,
        perishable: false,
        safePlace: '',
        leftAt: '',
        added: true,
        seq: st.seq,
      });
      return json({ ok: true, id });
    }
    case 'draft': {
      const d = { recipient: str(b.recipient).trim().replace(/\s+/g, ' '), street: str(b.street).trim().replace(/\s+/g, ' '), apt: str(b.apt).trim(), zip: str(b.zip).trim(), size: str(b.size) };
      const errors = sendErrors(d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.draft = { ...st.draft, ...d };
      return json({ ok: true });
    }
    case 'service': {
      const service = str(b.service);
      if (!SERVICES.some(([n]) => n === service)) return json({ ok: false, error: 'Choose a service' }, 400);
      st.draft.service = service;
      return json({ ok: true });
    }
    case 'pay': {
      const d = st.draft;
      if (!draftOk(d) || !SERVICES.some(([n]) => n === d.service)) return json({ ok: false, error: 'Your details changed, please check them again' }, 409);
      const id = 901 + st.shipments.length;
      const tracking = `PH88${String(40213577 + st.seed * 7 + id).padStart(8, '0').slice(-8)}`;
      st.shipments.push({ id, tracking, ...d, cents: priceCents(d.service, d.size), seq: st.seq });
      st.draft = { recipient: '', street: '', apt: '', zip: '', size: '', service: '' };
      return json({ ok: true, id });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleParcels(st: ParcelState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return packagesPage(st, ctx, false);
  if (head === 'delivered') return packagesPage(st, ctx, true);
  if (head === 'track') return trackPage(ctx);
  if (head === 'points') return pointsPage(st, ctx);
  if (head === 'account') return accountPage(st, ctx);
  if (head === 'send' && arg === undefined) return sendPage(st, ctx);
  if (head === 'send' && arg === 'service') return servicePage(st, ctx);
  if (head === 'send' && arg === 'review') return reviewPage(st, ctx);
  if (head === 'send' && arg === 'done') return donePage(st, ctx, Number(sub));
  const p = head === 'p' ? st.parcels.find((x) => x.id === Number(arg)) : undefined;
  if (!p) return notFound(CSS);
  if (sub === undefined) return parcelPage(st, ctx, p, t);
  const back = { status: 303 as const, redirect: `${ctx.base}/p/${p.id}` };
  if (sub === 'change') return p.status === 'transit' ? changePage(st, ctx, p) : back;
  if (sub === 'day') return canReschedule(p) ? dayPage(st, ctx, p) : back;
  if (sub === 'points') return canRedirect(p) ? redirectPage(st, ctx, p) : back;
  if (sub === 'safe') return canSafePlace(p) ? safePage(ctx, p) : back;
  return notFound(CSS);
}
