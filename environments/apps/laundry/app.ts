import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, bottomNav as navBar, confirmDialog, json, kitCss, notFound, overflowMenu, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import {
  addressErrors,
  addressOf,
  CARD,
  CITY,
  claimable,
  claimCents,
  claimOn,
  CLAIM_DAYS,
  cleanText,
  DETERGENTS,
  deliveryOf,
  DRYER_HEATS,
  emptyDraft,
  EXPRESS_CENTS,
  HANDOFFS,
  ISSUES,
  LABEL_MAX,
  money,
  openWindows,
  orderOf,
  orderSubtotal,
  orderTotal,
  OWNER,
  OWNER_EMAIL,
  PICKUP_DAYS,
  RESOLUTIONS,
  resolutionsFor,
  serviceInfo,
  SERVICES,
  SHIRT_FINISHES,
  shortDay,
  relDay,
  STARCH_LEVELS,
  SUPPORT_PHONE,
  turnaroundsOf,
  WATER_TEMPS,
  weekdayOf,
  windowsOf,
  windowStart,
  dayLabel,
  dayOfMonth,
  type Address,
  type LaundryState,
  type Order,
  type Prefs,
} from './state.js';

const ACCENT = '#1864ab';
const SOFT = '#d0ebff';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f1f5f9}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #d6dee8}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5b6878}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.hello{padding:16px 16px 4px;font-size:24px;font-weight:bold;color:#0b2a4a}
.hello .s{font-size:16px;font-weight:normal;color:#4a5868;margin-top:4px}
.card{display:block;margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #d6dee8}
.card h2{margin:0 0 6px;font-size:21px}
.card .d{font-size:16px;color:#3f4d5c;margin-top:4px}
.card .lbl{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:${ACCENT};margin-bottom:6px}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.note{background:#fff9db;border-color:#ffe066}
.card.gone{background:#fff5f5;border-color:#ffc9c9}
.card.promo{background:${ACCENT};border-color:${ACCENT};color:#fff}
.card.promo .d{color:#e7f1fb}
.seg2{display:flex;gap:10px;margin:8px 12px}
.seg2 a{flex:1;display:flex;align-items:center;justify-content:center;height:48px;border:2px solid #c7d3e0;border-radius:10px;font-size:17px;font-weight:bold;background:#fff;color:#34465a}
.seg2 a.on{border-color:${ACCENT};background:${SOFT};color:#0b3a66}
.ord{display:flex;gap:14px;align-items:center;min-height:84px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3e9f0}
.ord .ic{width:48px;height:48px;flex:none;border-radius:12px;background:${SOFT};color:${ACCENT};display:flex;align-items:center;justify-content:center;font-size:16px;font-weight:bold}
.ord .info{flex:1;min-width:0}
.ord .n{font-size:18px;font-weight:bold}
.ord .s{font-size:15px;color:#4a5868;margin-top:2px}
.ord .p{font-size:17px;font-weight:bold;flex:none}
.ord.off .n{color:#868e96}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:13px;font-weight:bold;background:#e7f5ff;color:${ACCENT}}
.badge.warn{background:#fff3bf;color:#8d6708}
.badge.grey{background:#f1f3f5;color:#5b6878}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e3e9f0;font-size:17px}
.kv .k{color:#4a5868;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv.total{font-size:19px}
.item{display:flex;justify-content:space-between;gap:12px;align-items:center;min-height:58px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3e9f0}
.item .t{font-size:17px}
.item .s{font-size:14px;color:#8d6708;font-weight:bold;margin-top:2px}
.item .p{font-size:16px;font-weight:bold;flex:none}
.intro{padding:14px 16px 4px;font-size:16px;color:#3f4d5c}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.primary[disabled]{background:#9bb9d6!important}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:66px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3e9f0;text-align:left}
.opt .info{flex:1;min-width:0}
.opt .t{font-size:18px;font-weight:bold}
.opt .s{font-size:15px;color:#4a5868;margin-top:3px}
.opt .p{font-size:16px;font-weight:bold;flex:none}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.opt.sel{background:#f3f9ff}
.opt[disabled],.opt.off{opacity:.55}
.opt.off .t{text-decoration:line-through}
.dialog .opt{min-height:56px;padding:10px 4px;border-bottom:1px solid #f1f3f5;background:#fff}
.dialog .opt .t{font-size:17px}
.field .pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff;text-align:left}
.field .pick.unset{color:#868e96}
.field.bad input,.field.bad .pick,.field.bad textarea{border-color:#c92a2a}
.field textarea{height:96px}
.field .hint{font-size:15px;color:#4a5868;margin-top:6px}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.field .seg button{height:46px;font-size:16px}
.srow{display:flex;gap:14px;align-items:center;min-height:66px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3e9f0;width:100%;text-align:left}
.srow .info{flex:1;min-width:0}
.srow .t{font-size:18px}
.srow .s{font-size:15px;color:#4a5868;margin-top:3px}
.srow .v{font-size:16px;font-weight:bold;color:${ACCENT}}
.srow .go{font-size:22px;color:#9aa8b8}
.dstrip{display:flex;gap:8px;overflow-x:auto;padding:10px 12px}
.dstrip a{flex:none;width:62px;height:70px;border-radius:12px;border:2px solid #c7d3e0;background:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:14px;font-weight:bold;color:#34465a}
.dstrip b{font-size:22px}
.dstrip a.on{border-color:${ACCENT};background:${ACCENT};color:#fff}
.dayh{padding:8px 16px 0;font-size:20px;font-weight:bold;color:#0b2a4a}
.wins .opt{min-height:60px}
.footer{position:fixed;left:0;right:0;bottom:0;z-index:30;background:#fff;border-top:1px solid #d6dee8;padding:4px 0}
.footer .sum{padding:8px 16px 0;font-size:15px;color:#3f4d5c;min-height:22px}
.footer .primary{margin:8px 12px}
.av{width:46px;height:46px;border-radius:23px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold;background:${ACCENT}}
.addr{padding:14px 16px;background:#fff;border-bottom:1px solid #e3e9f0}
.addr .t{font-size:18px;font-weight:bold}
.addr .s{font-size:15px;color:#4a5868;margin-top:3px}
.price{display:flex;justify-content:space-between;gap:12px;padding:14px 16px;background:#fff;border-bottom:1px solid #e3e9f0}
.price .t{font-size:18px;font-weight:bold}
.price .s{font-size:15px;color:#4a5868;margin-top:3px}
.price .p{font-size:16px;font-weight:bold;color:${ACCENT};text-align:right;flex:none;max-width:45%}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
`;

type Tab = 'home' | 'orders' | 'prices' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'orders', label: 'Orders', glyph: '&#9776;', href: `${ctx.base}/orders` },
      { id: 'prices', label: 'Prices', glyph: '$', href: `${ctx.base}/prices` },
      { id: 'account', label: 'Account', glyph: '&#9786;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Price list', `${ctx.base}/prices`],
    ['Cleaning preferences', `${ctx.base}/account/preferences`],
    ['Addresses', `${ctx.base}/account/addresses`],
  ]);

const SERVICE_GLYPH: Readonly<Record<string, string>> = { 'Wash & Fold': 'WF', 'Wash & Press': 'WP', 'Dry Cleaning': 'DC', 'Bedding & Linens': 'BL', Alterations: 'AL' };
/** When a window starts, as people say it ("7–9 PM" → "7 PM"). */
const windowFrom = (w: string): string => {
  const [from = '', to = ''] = w.split('–');
  return /[AP]M$/.test(from) ? from : `${from} ${to.slice(-2)}`;
};
const addrLine = (a: Address | undefined): string => (a ? `${a.street}${a.apt ? `, ${a.apt}` : ''}` : '');
const addrName = (a: Address | undefined): string => (a ? `${a.label} · ${addrLine(a)}` : 'Choose an address');
const itemCount = (o: Order): string => {
  if (o.service === 'Wash & Fold') return o.items[0]?.name.replace(/^Laundry bag \((.*)\)$/, '1 bag, $1') ?? 'Weighed at pickup';
  return `${o.items.length} item${o.items.length === 1 ? '' : 's'}`;
};
const ACTIVE: readonly Order['status'][] = ['out_for_delivery', 'cleaning', 'scheduled'];
const activeOrders = (st: LaundryState): Order[] =>
  st.orders
    .filter((o) => ACTIVE.includes(o.status))
    .sort((a, b) => ACTIVE.indexOf(a.status) - ACTIVE.indexOf(b.status) || a.pickupDay - b.pickupDay || windowStart(a.pickupWindow) - windowStart(b.pickupWindow) || a.id - b.id);
const pastOrders = (st: LaundryState): Order[] =>
  st.orders.filter((o) => !ACTIVE.includes(o.status)).sort((a, b) => (b.status === 'cancelled' ? b.pickupDay : b.deliveryDay) - (a.status === 'cancelled' ? a.pickupDay : a.deliveryDay) || b.id - a.id);

/** "today", "tomorrow" or "Thu, Jun 5", for the middle of a sentence. */
const relLower = (day: number): string => relDay(day).replace(/^(Today|Tomorrow|Yesterday)$/, (w) => w.toLowerCase());

/** What the order is doing now, in one line. */
function statusText(o: Order): { badge: string; cls: string; line: string } {
  switch (o.status) {
    case 'scheduled':
      return { badge: 'Pickup scheduled', cls: '', line: `Pickup ${relLower(o.pickupDay)}, ${o.pickupWindow}` };
    case 'cleaning':
      return { badge: 'Being cleaned', cls: '', line: `Back ${relLower(o.deliveryDay)}, ${o.deliveryWindow}` };
    case 'out_for_delivery':
      return { badge: 'Out for delivery', cls: 'warn', line: `Arriving ${relLower(o.deliveryDay)}, ${o.deliveryWindow}` };
    case 'delivered':
      return { badge: 'Delivered', cls: 'grey', line: `Delivered ${shortDay(o.deliveryDay)}` };
    default:
      return { badge: 'Cancelled', cls: 'grey', line: `Pickup was ${shortDay(o.pickupDay)}` };
  }
}

function orderRow(ctx: AppContext, o: Order): string {
  const s = statusText(o);
  const price = o.status === 'delivered' ? money(orderTotal(o)) : '';
  return `<a class="ord${o.status === 'cancelled' ? ' off' : ''}" href="${ctx.base}/o/${o.id}" data-number="${o.number}"><div class="ic">${SERVICE_GLYPH[o.service] ?? ''}</div><div class="info"><div class="n">Order #${o.number}</div><div class="s">${esc(
    o.service,
  )} · ${esc(itemCount(o))}</div><div class="s"><span class="badge ${s.cls}">${esc(s.badge)}</span> ${esc(s.line)}</div></div>${price ? `<span class="p">${price}</span>` : ''}</a>`;
}

function homePage(st: LaundryState, ctx: AppContext): AppResponse {
  const active = activeOrders(st);
  const cards = active
    .map((o) => {
      const s = statusText(o);
      return `<a class="card" href="${ctx.base}/o/${o.id}"><div class="lbl">${esc(s.badge)}</div><h2>${esc(o.service)} · #${o.number}</h2><div class="d">${esc(s.line)}</div></a>`;
    })
    .join('');
  const body = `${appbar('FreshFold')}
<div class="hello">Good morning, ${esc(OWNER.split(' ')[0] ?? '')}<div class="s">Laundry and dry cleaning, picked up and delivered in ${esc(CITY.split(',')[0] ?? '')}</div></div>
<a class="primary" href="${ctx.base}/schedule">Schedule a pickup</a>
<div class="section">Your orders</div>${cards || '<div class="empty">No orders in progress</div>'}
<div class="card"><div class="lbl">FreshFold credit</div><h2>${money(st.creditCents)}</h2><div class="d">Applied automatically to your next order.</div></div>
<div class="card promo"><h2>Give $20, get $20</h2><div class="d">Invite a friend. When they finish their first order, you both get $20 in credit.</div></div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'FreshFold', css: CSS, body, ctx, root: true });
}

function ordersPage(st: LaundryState, ctx: AppContext, past: boolean): AppResponse {
  const active = activeOrders(st);
  const seg = `<div class="seg2"><a class="${past ? '' : 'on'}" href="${ctx.base}/orders">Active (${active.length})</a><a class="${past ? 'on' : ''}" href="${ctx.base}/orders/past">Past</a></div>`;
  const rows = past
    ? `<div class="intro">Something wrong with an order? Open it and tap Report a problem. Claims can be made up to ${CLAIM_DAYS} days after delivery.</div><div class="section">Delivered and cancelled</div>${pastOrders(st)
        .map((o) => orderRow(ctx, o))
        .join('')}`
    : `<div class="section">On the way and scheduled</div>${active.length ? active.map((o) => orderRow(ctx, o)).join('') : '<div class="empty">No active orders</div>'}`;
  const body = `${appbar('Orders')}${seg}${rows}
<a class="outline" href="${ctx.base}/schedule">Schedule a pickup</a>
<div class="spacer"></div>${bottomNav(ctx, 'orders')}${menu(ctx)}`;
  return renderPage({ title: 'Orders', css: CSS, body, ctx, root: true });
}

function orderPage(st: LaundryState, ctx: AppContext, o: Order, t: string): AppResponse {
  const s = statusText(o);
  const addr = addressOf(st, o.addressId);
  const top =
    t === 'scheduled' && o.status === 'scheduled'
      ? `<div class="card ok"><h2>Pickup confirmed</h2><div class="d">Have your bags ready by ${esc(windowFrom(o.pickupWindow))}. Your driver texts 15 minutes before arriving.</div></div>`
      : t === 'claim'
        ? `<div class="card ok"><h2>Claim submitted</h2><div class="d">Our care team replies within 1 business day by email to ${esc(OWNER_EMAIL)}.</div></div>`
        : o.status === 'cancelled' && o.seq > 0
          ? `<div class="card gone"><h2>Pickup cancelled</h2><div class="d">Nothing was charged.</div></div>`
          : '';
  const items = o.items.length
    ? o.items
        .map((i) => {
          const c = claimOn(st, i.id);
          return `<div class="item"><div><div class="t">${esc(i.name)}</div>${c ? `<div class="s">Claim open · ${esc(c.issue)}</div>` : ''}</div><span class="p">${money(i.cents)}</span></div>`;
        })
        .join('')
    : `<div class="intro">${o.service === 'Wash & Fold' ? "We'll weigh your laundry at pickup." : "We'll count your items at pickup."} Your receipt shows up here.</div>`;
  const express = o.turnaround === 'Express' ? `<div class="kv"><span class="k">Express turnaround</span><span class="v">${money(EXPRESS_CENTS)}</span></div>` : '';
  const pay = o.items.length
    ? `<div class="section">Payment</div><div class="kv"><span class="k">Subtotal</span><span class="v">${money(orderSubtotal(o))}</span></div>${express}
<div class="kv"><span class="k">Pickup and delivery</span><span class="v">Free</span></div><div class="kv total"><span class="k">Total</span><span class="v">${money(orderTotal(o))}</span></div>
<div class="kv"><span class="k">Paid with</span><span class="v">${esc(CARD)}</span></div>`
    : '';
  let action = '';
  let dialog = '';
  if (o.status === 'delivered' && claimable(o)) action = `<a class="outline" href="${ctx.base}/o/${o.id}/report">Report a problem</a>`;
  else if (o.status === 'delivered')
    action = `<div class="card note"><div class="d" style="margin:0">Claims can be made up to ${CLAIM_DAYS} days after delivery. For an older order, call our care team at ${esc(SUPPORT_PHONE)}.</div></div>`;
  else if (o.status === 'scheduled') {
    action = `<button class="outline danger" onclick="show('cancel')">Cancel pickup</button>`;
    dialog = `<div id="cancel" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel this pickup?"><h2>Cancel this pickup?</h2>
<p>The ${esc(o.service)} pickup on ${esc(dayLabel(o.pickupDay))}, ${esc(o.pickupWindow)} will be cancelled. Nothing is charged.</p>
<div class="err" id="cerr"></div><div class="acts"><button onclick="hide('cancel')">Keep pickup</button><button class="destroy" id="cancel-ok" onclick="doCancel()">Cancel pickup</button></div></div></div>`;
  } else if (o.status === 'out_for_delivery')
    action = `<div class="card note"><div class="d" style="margin:0">Your driver, Marco, is on the way. We'll text you when he's close.</div></div>`;
  const body = `${appbar(`Order #${o.number}`, { back: true })}${top}
<div class="card"><div class="lbl">Order status</div><h2>${esc(o.service)}</h2><div class="d"><span class="badge ${s.cls}">${esc(s.badge)}</span> ${esc(s.line)}</div></div>
<div class="kv"><span class="k">Pickup</span><span class="v">${esc(shortDay(o.pickupDay))}, ${esc(o.pickupWindow)}</span></div>
<div class="kv"><span class="k">${o.status === 'delivered' ? 'Delivered' : 'Delivery'}</span><span class="v">${o.status === 'cancelled' ? '—' : `${esc(shortDay(o.deliveryDay))}, ${esc(o.deliveryWindow)}`}</span></div>
<div class="kv"><span class="k">Turnaround</span><span class="v">${esc(o.turnaround)}</span></div>
<div class="kv"><span class="k">Address</span><span class="v">${esc(addr ? `${addr.label}, ${addrLine(addr)}` : '—')}</span></div>
<div class="section">Items${o.items.length && o.service !== 'Wash & Fold' ? ` (${o.items.length})` : ''}</div>${items}
${pay}
${action}
<div class="spacer"></div>${bottomNav(ctx, 'orders')}${menu(ctx)}${dialog}${t === 'scheduled' && o.status === 'scheduled' ? toast('Pickup scheduled') : t === 'claim' ? toast('Claim submitted') : t === 'cancelled' ? toast('Pickup cancelled') : ''}`;
  const script =
    o.status === 'scheduled'
      ? `let busy=false;function doCancel(){if(busy)return;busy=true;api('cancel',{id:${o.id}}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/o/${o.id}?toast=cancelled');return}document.getElementById('cerr').textContent=r.error||'Could not cancel'})}`
      : '';
  return renderPage({ title: `Order #${o.number}`, css: CSS, body, ctx, script });
}

/** A radio list in a dialog whose options have a title and a line under it; `fn(el)` runs on a pick. */
function optionDialog(id: string, title: string, opts: readonly { v: string; t: string; s: string }[], current: string, fn: string): string {
  const rows = opts
    .map(
      (o) =>
        `<button class="opt${o.v === current ? ' sel' : ''}" role="radio" aria-checked="${o.v === current}" data-v="${esc(o.v)}" data-t="${esc(o.t)}" onclick="${fn}(this)"><span class="rad"></span><div class="info"><div class="t">${esc(
          o.t,
        )}</div><div class="s">${esc(o.s)}</div></div></button>`,
    )
    .join('');
  return `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('${id}')"><div class="dialog" role="dialog" aria-label="${esc(title)}"><h2>${esc(title)}</h2>${rows}
<div class="acts"><button onclick="hide('${id}')">Cancel</button></div></div></div>`;
}

/** Radio rows on the page; `fn(el)` runs on a tap. */
const radioRow = (group: string, v: string, title: string, sub: string, on: boolean, fn: string, extra = ''): string =>
  `<button class="opt${on ? ' sel' : ''}" role="radio" aria-checked="${on}" data-g="${group}" data-v="${esc(v)}" onclick="${fn}(this)"${extra}><span class="rad"></span><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div></button>`;

const standardLine = (service: string): string => {
  const days = serviceInfo(service)?.[3] ?? 2;
  return `Back in ${days} days · free`;
};

function schedulePage(st: LaundryState, ctx: AppContext): AppResponse {
  const d = st.draft;
  const addr = addressOf(st, d.addressId) ?? addressOf(st, st.defaultAddressId);
  const services = SERVICES.map(([n, about, price]) => radioRow('service', n, n, `${about} · ${price}`, d.service === n, 'pickService')).join('');
  const expressOk = !d.service || turnaroundsOf(d.service).includes('Express');
  const turn =
    radioRow('turn', 'Standard', 'Standard', d.service ? standardLine(d.service) : 'Back in 2–3 days · free', d.turnaround !== 'Express', 'pickTurn') +
    radioRow('turn', 'Express', 'Express', expressOk ? `Back the next day · +${money(EXPRESS_CENTS)}` : `Not available for ${d.service}`, d.turnaround === 'Express' && expressOk, 'pickTurn', expressOk ? '' : ' disabled');
  const addrOpts = st.addresses.map((a) => ({ v: String(a.id), t: a.label, s: `${addrLine(a)}, ${a.zip}` }));
  const body = `${appbar('Schedule a pickup', { back: true, menu: false })}
<div class="intro">We pick up, clean and bring it back. You pay after we weigh or count your items.</div>
<div class="section">What are we cleaning?</div><div id="g-service" role="radiogroup">${services}</div><div class="error" id="e-service"></div>
<div class="section">Turnaround</div><div id="g-turn" role="radiogroup">${turn}</div><div class="error" id="e-turn"></div>
<div class="field" id="f-addr"><label>Pickup address</label><button class="pick" onclick="show('addrs')"><span id="addr-v">${esc(addrName(addr))}</span><span>&#9662;</span></button><div class="ferr" id="e-addr"></div></div>
<div class="field" id="f-notes"><label for="notes">Notes for the driver (optional)</label><textarea id="notes" maxlength="200" placeholder="Gate code, where the bags are, anything we should know">${esc(d.notes)}</textarea></div>
<button class="primary" onclick="next()">Continue</button><div class="spacer"></div>
${optionDialog('addrs', 'Pickup address', addrOpts, addr ? String(addr.id) : '', 'pickAddr')}`;
  const info = Object.fromEntries(SERVICES.map(([n, , , days, express]) => [n, { days, express }]));
  const script = `const V={service:${JSON.stringify(d.service)},turn:${JSON.stringify(d.turnaround === 'Express' && expressOk ? 'Express' : 'Standard')},addr:${addr ? addr.id : 0}};const INFO=${JSON.stringify(info)};
function mark(g,el){for(const o of document.querySelectorAll('#g-'+g+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function pickService(el){V.service=el.dataset.v;mark('service',el);document.getElementById('e-service').textContent='';const i=INFO[V.service];
 const std=document.querySelector('#g-turn .opt[data-v="Standard"]');std.querySelector('.s').textContent='Back in '+i.days+' days · free';
 const ex=document.querySelector('#g-turn .opt[data-v="Express"]');ex.disabled=!i.express;ex.querySelector('.s').textContent=i.express?'Back the next day · +${money(EXPRESS_CENTS)}':'Not available for '+V.service;
 if(!i.express&&V.turn==='Express'){V.turn='Standard';mark('turn',std)}document.getElementById('e-turn').textContent=''}
function pickTurn(el){if(el.disabled)return;V.turn=el.dataset.v;mark('turn',el);document.getElementById('e-turn').textContent=''}
function pickAddr(el){V.addr=Number(el.dataset.v);document.getElementById('addr-v').textContent=el.dataset.t+' · '+el.querySelector('.s').textContent.replace(/, \\d{5}$/,'');
 for(const o of document.querySelectorAll('#addrs .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('addrs')}
let busy=false;function next(){if(busy)return;for(const k of ['service','turn'])document.getElementById('e-'+k).textContent='';document.getElementById('e-addr').textContent='';
 busy=true;api('draft',{service:V.service,turnaround:V.turn,address:V.addr,notes:document.getElementById('notes').value}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/schedule/when';return}
 for(const [k,m] of Object.entries(r.errors||{}))document.getElementById('e-'+k).textContent=m})}`;
  return renderPage({ title: 'Schedule a pickup', css: CSS, body, ctx, script });
}

const draftReady = (st: LaundryState): boolean =>
  !!serviceInfo(st.draft.service) && turnaroundsOf(st.draft.service).includes(st.draft.turnaround) && !!addressOf(st, st.draft.addressId);

function whenPage(st: LaundryState, ctx: AppContext, dayQ: number): AppResponse {
  if (!draftReady(st)) return { status: 303, redirect: `${ctx.base}/schedule` };
  const d = st.draft;
  const day = PICKUP_DAYS.includes(dayQ) ? dayQ : PICKUP_DAYS.includes(d.day) ? d.day : (PICKUP_DAYS[0] ?? 1);
  const strip = PICKUP_DAYS.map(
    (x) => `<a class="${x === day ? 'on' : ''}" href="${ctx.base}/schedule/when?day=${x}" aria-label="${esc(dayLabel(x))}">${esc(weekdayOf(x).slice(0, 3))}<b>${dayOfMonth(x)}</b></a>`,
  ).join('');
  const open = openWindows(st, day);
  const chosen = d.day === day && open.includes(d.window) ? d.window : '';
  const ret = deliveryOf(d.service, d.turnaround, day);
  const backLine = `Back ${shortDay(ret.day)}, ${ret.window}`;
  const rows = windowsOf(day)
    .map((w) =>
      open.includes(w)
        ? `<button class="opt${w === chosen ? ' sel' : ''}" role="radio" aria-checked="${w === chosen}" data-w="${esc(w)}" onclick="pick(this)"><span class="rad"></span><div class="info"><div class="t">${esc(w)}</div><div class="s">${esc(backLine)}</div></div></button>`
        : `<div class="opt off" aria-disabled="true" data-w="${esc(w)}"><span class="rad"></span><div class="info"><div class="t">${esc(w)}</div><div class="s">Full</div></div></div>`,
    )
    .join('');
  const addr = addressOf(st, d.addressId);
  const body = `${appbar('Pickup time', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#0b2a4a">Choose a pickup window</b><br>${esc(d.service)} · ${esc(d.turnaround)}</div>
<div class="card note" style="margin:8px 12px;padding:12px 14px"><div class="d" style="margin:0">Pickup at ${esc(addr?.label ?? '')}, ${esc(addrLine(addr))}. Have your bags by the door; your driver texts 15 minutes before arriving.</div></div>
<div class="dstrip">${strip}</div>
<div class="dayh">${esc(dayLabel(day))}</div>
${open.length ? '' : '<div class="empty">Every window is full on this day. Try another day.</div>'}
<div class="wins" role="radiogroup">${rows}</div>
<div class="spacer" style="height:150px"></div>
<div class="footer"><div class="sum" id="sum">${chosen ? esc(`${shortDay(day)}, ${chosen}`) : 'Pick a window'}</div><button class="primary" id="go" ${chosen ? '' : 'disabled'} onclick="next()">Continue</button></div>`;
  const script = `let W=${JSON.stringify(chosen)};const DAY=${day};const SHORT=${JSON.stringify(shortDay(day))};
function pick(el){W=el.dataset.w;for(const o of document.querySelectorAll('.wins button')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}
 document.getElementById('sum').textContent=SHORT+', '+W;document.getElementById('go').disabled=false}
let busy=false;function next(){if(!W||busy)return;busy=true;api('slot',{day:DAY,window:W}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/schedule/review';return}document.getElementById('sum').textContent=r.error||'Pick another window'})}`;
  return renderPage({ title: 'Pickup time', css: CSS, body, ctx, script });
}

function reviewPage(st: LaundryState, ctx: AppContext): AppResponse {
  const d = st.draft;
  const info = serviceInfo(d.service);
  if (!draftReady(st) || !info || !openWindows(st, d.day).includes(d.window)) return { status: 303, redirect: `${ctx.base}/schedule${draftReady(st) ? '/when' : ''}` };
  const addr = addressOf(st, d.addressId);
  const back = deliveryOf(d.service, d.turnaround, d.day);
  const body = `${appbar('Review pickup', { back: true, menu: false })}
<div class="card"><div class="lbl">New pickup</div><h2>${esc(d.service)}</h2><div class="d">${esc(info[1])}</div></div>
<div class="kv"><span class="k">Pickup</span><span class="v">${esc(dayLabel(d.day))}<br>${esc(d.window)}</span></div>
<div class="kv"><span class="k">Turnaround</span><span class="v">${esc(d.turnaround)}</span></div>
<div class="kv"><span class="k">Back by</span><span class="v">${esc(shortDay(back.day))}, ${esc(back.window)}</span></div>
<div class="kv"><span class="k">Address</span><span class="v">${esc(addr?.label ?? '')}<br>${esc(addrLine(addr))}</span></div>
<div class="kv"><span class="k">Price</span><span class="v">${esc(info[2])}</span></div>
${d.turnaround === 'Express' ? `<div class="kv"><span class="k">Express</span><span class="v">+${money(EXPRESS_CENTS)}</span></div>` : ''}
${d.notes ? `<div class="kv"><span class="k">Driver notes</span><span class="v">${esc(d.notes)}</span></div>` : ''}
<div class="intro">We charge ${esc(CARD)} after we weigh or count your items. Free cancellation until the pickup window starts; your ${money(st.creditCents)} credit is applied first.</div>
<div class="error" id="err"></div>
<button class="primary" onclick="go()">Confirm pickup</button>
<a class="outline" href="${ctx.base}/schedule/when?day=${d.day}">Change time</a><div class="spacer"></div>`;
  const script = `let busy=false;function go(){if(busy)return;busy=true;api('schedule',{}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/o/'+r.id+'?toast=scheduled');return}document.getElementById('err').textContent=r.error||'Could not schedule the pickup'})}`;
  return renderPage({ title: 'Review pickup', css: CSS, body, ctx, script });
}

function reportPage(st: LaundryState, ctx: AppContext, o: Order): AppResponse {
  const items = o.items
    .map((i) => {
      const c = claimOn(st, i.id);
      return c
        ? `<div class="opt off" aria-disabled="true" data-v="${i.id}"><span class="rad"></span><div class="info"><div class="t">${esc(i.name)}</div><div class="s">Claim already open · ${esc(c.issue)}</div></div><span class="p">${money(i.cents)}</span></div>`
        : `<button class="opt" role="radio" aria-checked="false" data-g="item" data-v="${i.id}" data-name="${esc(i.name)}" onclick="pickItem(this)"><span class="rad"></span><div class="info"><div class="t">${esc(i.name)}</div></div><span class="p">${money(i.cents)}</span></button>`;
    })
    .join('');
  const issueOpts = ISSUES.map(([n, s]) => ({ v: n, t: n, s }));
  const res = RESOLUTIONS.map((r) =>
    radioRow('res', r, r, r === 'Free re-clean' ? 'We pick it up with your next order and clean it again' : r === 'Refund to card' ? `Back to ${CARD} in 3–5 business days` : 'Get 10% extra as FreshFold credit, right away', false, 'pickRes'),
  ).join('');
  const body = `${appbar('Report a problem', { back: true, menu: false })}
<div class="card"><div class="lbl">Order #${o.number}</div><h2>${esc(o.service)}</h2><div class="d">Delivered ${esc(shortDay(o.deliveryDay))}</div></div>
<div class="section">Which item?</div><div id="g-item" role="radiogroup">${items}</div><div class="error" id="e-item"></div>
<div class="field" id="f-issue"><label>What went wrong?</label><button class="pick unset" onclick="show('issues')"><span id="issue-v">Choose a problem</span><span>&#9662;</span></button><div class="ferr" id="e-issue"></div></div>
<div class="section">How should we make it right?</div><div id="g-res" role="radiogroup">${res}</div><div class="error" id="e-res"></div>
<div class="field" id="f-details"><label for="details">Tell us more (optional)</label><textarea id="details" maxlength="300" placeholder="Where is the stain or damage? Anything else we should know?"></textarea></div>
<button class="primary" onclick="ask()">Submit claim</button><div class="spacer"></div>
${optionDialog('issues', 'What went wrong?', issueOpts, '', 'pickIssue')}
${confirmDialog('confirm', 'Submit this claim?', '', 'Submit', 'send()')}`;
  const prices = Object.fromEntries(o.items.map((i) => [i.id, i.cents]));
  const script = `const V={item:0,name:'',issue:'',res:''};const PRICES=${JSON.stringify(prices)};const CARD=${JSON.stringify(CARD)};const NUM=${JSON.stringify(o.number)};
const money=c=>'$'+(c/100).toFixed(2);
function mark(g,el){for(const o of document.querySelectorAll('#g-'+g+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function resLines(){const p=PRICES[V.item];for(const o of document.querySelectorAll('#g-res .opt')){const v=o.dataset.v;const s=o.querySelector('.s');
 if(v==='Free re-clean'){o.disabled=!!V.issue&&V.issue!=='Stain not removed';s.textContent=o.disabled?'Only for stains that are still there':'We pick it up with your next order and clean it again'}
 if(v==='Refund to card')s.textContent=(p?money(p)+' back':'Back')+' to '+CARD+' in 3–5 business days';
 if(v==='FreshFold credit')s.textContent=p?money(Math.round(p*1.1))+' as FreshFold credit, right away':'Get 10% extra as FreshFold credit, right away'}
 const cur=document.querySelector('#g-res .opt.sel');if(cur&&cur.disabled){V.res='';mark('res',null)}}
function pickItem(el){V.item=Number(el.dataset.v);V.name=el.dataset.name;mark('item',el);document.getElementById('e-item').textContent='';resLines()}
function pickIssue(el){V.issue=el.dataset.v;const s=document.getElementById('issue-v');s.textContent=el.dataset.t;s.parentElement.classList.remove('unset');document.getElementById('e-issue').textContent='';document.getElementById('f-issue').classList.remove('bad');
 for(const o of document.querySelectorAll('#issues .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('issues');resLines()}
function pickRes(el){if(el.disabled)return;V.res=el.dataset.v;mark('res',el);document.getElementById('e-res').textContent=''}
function ask(){let bad=false;if(!V.item){document.getElementById('e-item').textContent='Choose the item with the problem';bad=true}
 if(!V.issue){document.getElementById('e-issue').textContent='Tell us what went wrong';document.getElementById('f-issue').classList.add('bad');bad=true}
 if(!V.res){document.getElementById('e-res').textContent='Choose how we should make it right';bad=true}if(bad)return;
 const p=PRICES[V.item];const how=V.res==='Free re-clean'?'We will pick it up with your next order and re-clean it for free.':V.res==='Refund to card'?'We will refund '+money(p)+' to '+CARD+'.':'We will add '+money(Math.round(p*1.1))+' in FreshFold credit.';
 document.getElementById('confirm-text').textContent=V.name+' from order #'+NUM+': '+V.issue+'. '+how;show('confirm')}
let busy=false;function send(){if(busy)return;busy=true;api('claim',{order:${o.id},item:V.item,issue:V.issue,resolution:V.res,details:document.getElementById('details').value}).then(r=>{busy=false;hide('confirm');
 if(r.ok){location.replace(BASE+'/o/${o.id}?toast=claim');return}document.getElementById('e-res').textContent=r.error||'Could not submit the claim'})}`;
  return renderPage({ title: 'Report a problem', css: CSS, body, ctx, script });
}

function pricesPage(ctx: AppContext): AppResponse {
  const rows = SERVICES.map(
    ([n, about, price, days, express]) =>
      `<div class="price"><div><div class="t">${esc(n)}</div><div class="s">${esc(about)}</div><div class="s">Back in ${days} days${express ? ', or next day with Express' : ''}</div></div><span class="p">${esc(price)}</span></div>`,
  ).join('');
  const body = `${appbar('Prices')}
<div class="intro">Price list for San Francisco. Pickup and delivery are free on orders over $30.</div>${rows}
<div class="section">Extras</div>
<div class="price"><div><div class="t">Express turnaround</div><div class="s">Back the next day</div></div><span class="p">+${money(EXPRESS_CENTS)}</span></div>
<div class="price"><div><div class="t">Eco solvent</div><div class="s">Dry cleaning with a silicone-based solvent</div></div><span class="p">+$1.00 per item</span></div>
<div class="price"><div><div class="t">Small order fee</div><div class="s">Orders under $30</div></div><span class="p">$4.99</span></div>
<div class="spacer"></div>${bottomNav(ctx, 'prices')}${menu(ctx)}`;
  return renderPage({ title: 'Prices', css: CSS, body, ctx, root: true });
}

function accountPage(st: LaundryState, ctx: AppContext): AppResponse {
  const link = (href: string, t: string, s: string): string =>
    `<a class="srow" href="${href}"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div><span class="go">&rsaquo;</span></a>`;
  const row = (t: string, s: string): string => `<div class="srow"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const def = addressOf(st, st.defaultAddressId);
  const body = `${appbar('Account')}
<div class="srow"><div class="av">${esc(OWNER.split(' ').map((w) => w[0] ?? '').join(''))}</div><div class="info"><div class="t">${esc(OWNER)}</div><div class="s">${esc(OWNER_EMAIL)}</div></div></div>
<div class="card"><div class="lbl">FreshFold credit</div><h2>${money(st.creditCents)}</h2><div class="d">Used automatically on your next order.</div></div>
<div class="section">Your account</div>
${link(`${ctx.base}/account/addresses`, 'Addresses', `${st.addresses.length} saved · default ${def?.label ?? ''}`)}
${link(`${ctx.base}/account/preferences`, 'Cleaning preferences', `${st.prefs.detergent} detergent · ${st.prefs.starch === 'None' ? 'no' : st.prefs.starch.toLowerCase()} starch`)}
${row('Payment', CARD)}
${row('FreshFold Plus', 'Free Express on every order for $9.99 a month')}
<div class="section">More</div>
${row('Notifications', 'Texts for pickups and deliveries, email receipts')}
${row('Help and support', `Chat with us or call ${SUPPORT_PHONE}`)}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true });
}

function prefsPage(st: LaundryState, ctx: AppContext, t: string): AppResponse {
  const p = st.prefs;
  const seg = (key: keyof Prefs, options: readonly string[]): string =>
    `<div class="seg" data-k="${key}">${options.map((o) => `<button class="${p[key] === o ? 'on' : ''}" data-v="${esc(o)}" aria-pressed="${p[key] === o}" onclick="seg(this)">${esc(o)}</button>`).join('')}</div>`;
  const sw = (key: keyof Prefs, title: string, sub: string): string =>
    `<button class="srow" role="switch" aria-checked="${p[key] === true}" data-k="${key}" onclick="flip(this)"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div><span class="switch${p[key] === true ? ' on' : ''}"></span></button>`;
  const detOpts = DETERGENTS.map(([n, s]) => ({ v: n, t: n, s }));
  const body = `<header class="appbar"><button class="icon" aria-label="Back" onclick="goBack()">&larr;</button><h1>Cleaning preferences</h1></header>
${t === 'saved' ? `<div class="card ok"><h2>Preferences saved</h2><div class="d">We'll use them from your next pickup.</div></div>` : ''}
<div class="intro">How we wash your clothes. Changes apply from your next pickup.</div>
<div class="section">Wash &amp; Fold</div>
<button class="srow" id="r-detergent" onclick="show('detergents')"><div class="info"><div class="t">Detergent</div><div class="s" id="det-v">${esc(p.detergent)}</div></div><span class="go">&rsaquo;</span></button>
${sw('softener', 'Fabric softener', 'Dryer sheets in every load')}
<div class="field"><label>Water temperature</label>${seg('water', WATER_TEMPS)}</div>
<div class="field"><label>Dryer heat</label>${seg('dryer', DRYER_HEATS)}</div>
<div class="section">Wash &amp; Press</div>
<div class="field" id="f-starch"><label>Starch</label>${seg('starch', STARCH_LEVELS)}<div class="hint">For shirts and pants we press</div></div>
<div class="field"><label>Shirts come back</label>${seg('shirts', SHIRT_FINISHES)}</div>
<div class="section">Dry Cleaning</div>
${sw('ecoSolvent', 'Eco solvent only', 'Silicone-based cleaning, +$1.00 per item')}
<div class="error" id="err"></div>
<button class="primary" onclick="save()">Save preferences</button><div class="spacer"></div>
${optionDialog('detergents', 'Detergent', detOpts, p.detergent, 'pickDet')}
<div id="discard" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Discard changes?"><h2>Discard changes?</h2><p>Your changes to cleaning preferences haven't been saved.</p>
<div class="acts"><button onclick="hide('discard')">Keep editing</button><button class="destroy" id="discard-ok" onclick="history.back()">Discard</button></div></div></div>`;
  const script = `const P=${JSON.stringify(p)};const START=JSON.stringify(P);
function goBack(){if(JSON.stringify(P)!==START){show('discard');return}history.back()}
function seg(el){const k=el.parentElement.dataset.k;P[k]=el.dataset.v;for(const b of el.parentElement.querySelectorAll('button')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-pressed',String(on))}}
function flip(el){const k=el.dataset.k;P[k]=!P[k];el.setAttribute('aria-checked',String(P[k]));el.querySelector('.switch').classList.toggle('on',P[k])}
function pickDet(el){P.detergent=el.dataset.v;document.getElementById('det-v').textContent=el.dataset.t;for(const o of document.querySelectorAll('#detergents .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('detergents')}
let busy=false;function save(){if(busy)return;busy=true;api('prefs',P).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/account/preferences?toast=saved');return}document.getElementById('err').textContent=r.error||'Could not save'})}`;
  return renderPage({ title: 'Cleaning preferences', css: CSS, body: body + (t === 'saved' ? toast('Preferences saved') : ''), ctx, script });
}

function addressesPage(st: LaundryState, ctx: AppContext, t: string, newId: number): AppResponse {
  const added = t === 'added' ? addressOf(st, newId) : undefined;
  const rows = st.addresses
    .map(
      (a) =>
        `<div class="addr" data-id="${a.id}"><div class="t">${esc(a.label)}${a.id === st.defaultAddressId ? ' <span class="badge">Default</span>' : ''}</div><div class="s">${esc(addrLine(a))}</div><div class="s">${esc(CITY)} ${esc(a.zip)}</div><div class="s">Handoff: ${esc(a.handoff)}</div></div>`,
    )
    .join('');
  const body = `${appbar('Addresses', { back: true })}
${added ? `<div class="card ok"><h2>Address added</h2><div class="d">${esc(addrLine(added))} is ready for pickups.</div></div>` : ''}
<div class="section">Saved addresses</div>${rows}
<a class="outline" href="${ctx.base}/account/addresses/new">+ Add address</a>
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}${added ? toast('Address added') : ''}`;
  return renderPage({ title: 'Addresses', css: CSS, body, ctx });
}

function addAddressPage(ctx: AppContext): AppResponse {
  const handoffs = HANDOFFS.map(([n, s]) => radioRow('handoff', n, n, s, false, 'pickHandoff')).join('');
  const body = `${appbar('Add address', { back: true, menu: false })}
<div class="intro">We pick up and deliver anywhere in ${esc(CITY)}.</div>
<div class="field" id="f-label"><label for="label">Label (optional)</label><input id="label" type="text" autocomplete="off" maxlength="${LABEL_MAX + 10}" placeholder="e.g. Gym, Mom's place"><div class="ferr" id="e-label"></div></div>
<div class="field" id="f-street"><label for="street">Street address</label><input id="street" type="text" autocomplete="off" placeholder="e.g. 415 Larkin St"><div class="ferr" id="e-street"></div></div>
<div class="field" id="f-apt"><label for="apt">Apt, suite or floor (optional)</label><input id="apt" type="text" autocomplete="off"></div>
<div class="field" id="f-zip"><label for="zip">ZIP code</label><input id="zip" type="text" inputmode="numeric" autocomplete="off" maxlength="10"><div class="hint">${esc(CITY)}</div><div class="ferr" id="e-zip"></div></div>
<div class="section">Pickup and drop-off</div><div id="g-handoff" role="radiogroup">${handoffs}</div><div class="error" id="e-handoff"></div>
<button class="srow" role="switch" aria-checked="false" id="def" onclick="flipDef()"><div class="info"><div class="t">Make this my default address</div><div class="s">Used for new pickups</div></div><span class="switch"></span></button>
<button class="primary" onclick="save()">Save address</button><div class="spacer"></div>`;
  const script = `const V={handoff:'',def:false};
function pickHandoff(el){V.handoff=el.dataset.v;for(const o of document.querySelectorAll('#g-handoff .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}document.getElementById('e-handoff').textContent=''}
function flipDef(){V.def=!V.def;const b=document.getElementById('def');b.setAttribute('aria-checked',String(V.def));b.querySelector('.switch').classList.toggle('on',V.def)}
let busy=false;function save(){if(busy)return;for(const k of ['label','street','zip']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}document.getElementById('e-handoff').textContent='';
 const v=k=>document.getElementById(k).value;busy=true;api('address',{label:v('label'),street:v('street'),apt:v('apt'),zip:v('zip'),handoff:V.handoff,makeDefault:V.def}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/account/addresses?toast=added&id='+r.id);return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;const f=document.getElementById('f-'+k);if(f)f.classList.add('bad')}})}`;
  return renderPage({ title: 'Add address', css: CSS, body, ctx, script });
}

function handleApi(st: LaundryState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'draft': {
      const service = str(b.service);
      const turnaround = str(b.turnaround) || 'Standard';
      const addr = addressOf(st, Number(b.address));
      const errors: Record<string, string> = {};
      if (!serviceInfo(service)) errors.service = "Choose what we're cleaning";
      else if (!turnaroundsOf(service).includes(turnaround)) errors.turn = `Express isn't available for ${service}`;
      if (!addr) errors.addr = 'Choose a pickup address';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const keep = st.draft.service === service && st.draft.turnaround === turnaround;
      st.draft = { service, turnaround, addressId: addr?.id ?? st.defaultAddressId, notes: str(b.notes).trim().slice(0, 200), day: keep ? st.draft.day : -1, window: keep ? st.draft.window : '' };
      return json({ ok: true });
    }
    case 'slot': {
      const day = Number(b.day);
      const window = str(b.window);
      if (!draftReady(st)) return json({ ok: false, error: 'Start again from Schedule a pickup' }, 409);
      if (!PICKUP_DAYS.includes(day)) return json({ ok: false, error: 'That day is not available' }, 409);
      if (!openWindows(st, day).includes(window)) return json({ ok: false, error: 'That window just filled up. Pick another one.' }, 409);
      st.draft.day = day;
      st.draft.window = window;
      return json({ ok: true });
    }
    case 'schedule': {
      const d = st.draft;
      if (!draftReady(st) || !PICKUP_DAYS.includes(d.day) || !openWindows(st, d.day).includes(d.window))
        return json({ ok: false, error: 'That window is no longer available. Pick another one.' }, 409);
      const back = deliveryOf(d.service, d.turnaround, d.day);
      const id = 401 + st.orders.filter((o) => !o.seeded).length;
      st.orders.push({
        id,
        number: String(48310 + (id - 401) * 7),
        service: d.service,
        turnaround: d.turnaround,
        status: 'scheduled',
        pickupDay: d.day,
        pickupWindow: d.window,
        deliveryDay: back.day,
        deliveryWindow: back.window,
        addressId: d.addressId,
        items: [],
        notes: d.notes,
        seeded: false,
        seq: st.seq,
      });
      st.draft = emptyDraft(st.defaultAddressId);
      return json({ ok: true, id });
    }
    case 'cancel': {
      const o = orderOf(st, Number(b.id));
      if (!o || o.status !== 'scheduled') return json({ ok: false, error: 'This pickup can no longer be cancelled' }, 409);
      o.status = 'cancelled';
      o.seq = st.seq;
      return json({ ok: true });
    }
    case 'claim': {
      const o = orderOf(st, Number(b.order));
      const item = o?.items.find((i) => i.id === Number(b.item));
      const issue = str(b.issue);
      const resolution = str(b.resolution);
      if (!o || !item || !claimable(o) || claimOn(st, item.id)) return json({ ok: false, error: 'A claim cannot be made for this item' }, 409);
      if (!ISSUES.some(([n]) => n === issue)) return json({ ok: false, error: 'Tell us what went wrong' }, 400);
      if (!resolutionsFor(issue).includes(resolution)) return json({ ok: false, error: 'Choose how we should make it right' }, 400);
      const cents = claimCents(item, resolution);
      st.claims.push({ id: 81 + st.claims.filter((c) => !c.seeded).length, orderId: o.id, itemId: item.id, issue, resolution, details: str(b.details).trim().slice(0, 300), cents, seeded: false, seq: st.seq });
      return json({ ok: true });
    }
    case 'prefs': {
      const next: Prefs = {
        detergent: str(b.detergent),
        softener: b.softener === true,
        water: str(b.water),
        dryer: str(b.dryer),
        starch: str(b.starch),
        shirts: str(b.shirts),
        ecoSolvent: b.ecoSolvent === true,
      };
      if (
        !DETERGENTS.some(([n]) => n === next.detergent) ||
        !WATER_TEMPS.includes(next.water) ||
        !DRYER_HEATS.includes(next.dryer) ||
        !STARCH_LEVELS.includes(next.starch) ||
        !SHIRT_FINISHES.includes(next.shirts)
      )
        return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      st.prefs = next;
      st.prefsSaves += 1;
      return json({ ok: true });
    }
    case 'address': {
      const d = { label: str(b.label), street: str(b.street), apt: str(b.apt), zip: str(b.zip), handoff: str(b.handoff) };
      const errors = addressErrors(st.addresses, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const id = 21 + st.addresses.filter((a) => a.added).length;
      st.addresses.push({ id, label: cleanText(d.label) || 'Other', street: cleanText(d.street), apt: cleanText(d.apt), zip: d.zip.trim(), handoff: d.handoff, added: true, seq: st.seq });
      if (b.makeDefault === true) st.defaultAddressId = id;
      return json({ ok: true, id });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleLaundry(st: LaundryState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return homePage(st, ctx);
  if (head === 'schedule' && arg === undefined) return schedulePage(st, ctx);
  if (head === 'schedule' && arg === 'when') return whenPage(st, ctx, Number(req.query.get('day') ?? -1));
  if (head === 'schedule' && arg === 'review') return reviewPage(st, ctx);
  if (head === 'orders') return ordersPage(st, ctx, arg === 'past');
  if (head === 'prices') return pricesPage(ctx);
  if (head === 'account' && arg === undefined) return accountPage(st, ctx);
  if (head === 'account' && arg === 'preferences') return prefsPage(st, ctx, t);
  if (head === 'account' && arg === 'addresses' && sub === undefined) return addressesPage(st, ctx, t, Number(req.query.get('id') ?? 0));
  if (head === 'account' && arg === 'addresses' && sub === 'new') return addAddressPage(ctx);
  if (head === 'o') {
    const o = orderOf(st, Number(arg));
    if (!o) return notFound(CSS);
    if (sub === 'report') return claimable(o) ? reportPage(st, ctx, o) : { status: 303, redirect: `${ctx.base}/o/${o.id}` };
    return orderPage(st, ctx, o, t);
  }
  return notFound(CSS);
}
