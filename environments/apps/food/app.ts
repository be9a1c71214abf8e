import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { esc, pageShell } from '../shared.js';
import { PAYMENTS, formatPrice, restaurantById, type Payment, type Restaurant } from './catalog.js';
import type { CartLine, FoodState, Visit } from './state.js';

const DELIVERY_FEE = 199;

const CSS = `
.appbar{position:sticky;top:28px;z-index:20;height:58px;display:flex;align-items:center;gap:8px;padding:0 8px 0 12px;
 background:#e03131;color:#fff;box-shadow:0 2px 4px rgba(0,0,0,.15)}
.appbar h1{font-size:21px;margin:0;flex:1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.appbar .icon{width:44px;height:44px;font-size:26px;line-height:44px;text-align:center;border-radius:22px;color:#fff}
.brand{font-size:24px!important;letter-spacing:.5px}
.overflow{position:fixed;top:82px;right:8px;z-index:60;background:#fff;border-radius:10px;box-shadow:0 6px 24px rgba(0,0,0,.25);min-width:190px;padding:6px 0}
.overflow a,.overflow button{display:block;width:100%;text-align:left;padding:14px 18px;font-size:17px;color:#1f2328}
.search{display:flex;gap:8px;padding:12px;background:#fff;border-bottom:1px solid #e5e7eb}
.search input{flex:1;height:46px;border:2px solid #d0d4da;border-radius:23px;padding:0 18px;font-size:17px;outline:none;background:#f8f9fa}
.search input:focus{border-color:#e03131;background:#fff}
.search button{height:46px;padding:0 18px;border-radius:23px;background:#e03131;color:#fff;font-weight:bold;font-size:16px}
.promo{margin:12px;border-radius:14px;padding:18px;background:linear-gradient(120deg,#ffd43b,#ff922b);color:#3b1f00}
.promo b{display:block;font-size:20px;margin-bottom:4px}
.section{display:flex;justify-content:space-between;align-items:center;padding:14px 16px 6px;font-size:19px;font-weight:bold}
.section a{font-size:16px;color:#e03131}
.card{display:flex;gap:14px;align-items:center;margin:8px 12px;padding:12px;background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.thumb{width:72px;height:72px;border-radius:12px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:24px;font-weight:bold}
.card .name{font-size:19px;font-weight:bold;margin-bottom:4px}
.muted{color:#5f6670;font-size:15px}
.meta{font-size:15px;color:#2b2f36;margin-top:4px}
.star{color:#f59f00}
.empty{padding:40px 24px;text-align:center;font-size:18px;color:#5f6670}
.bottomnav{position:fixed;left:0;right:0;bottom:0;height:64px;z-index:20;display:flex;background:#fff;border-top:1px solid #dde1e6}
.bottomnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:15px;color:#5f6670;gap:2px}
.bottomnav a.on{color:#e03131;font-weight:bold}
.bottomnav .g{font-size:22px;line-height:22px}
.spacer{height:90px}
.hero{display:flex;gap:14px;align-items:center;padding:16px;background:#fff;border-bottom:1px solid #e5e7eb}
.hero .thumb{width:84px;height:84px;font-size:28px}
.hero .name{font-size:23px;font-weight:bold}
.dish{display:flex;gap:12px;align-items:center;padding:14px 16px;background:#fff;border-bottom:1px solid #eceef1}
.dish .info{flex:1}
.dish .dname{font-size:18px;font-weight:bold}
.dish .price{font-size:17px;font-weight:bold;margin-top:6px}
.add{min-width:88px;height:42px;border-radius:21px;border:2px solid #e03131!important;color:#e03131!important;font-weight:bold;font-size:17px;background:#fff!important}
.stepper{display:flex;align-items:center;gap:4px;border-radius:21px;background:#e03131;color:#fff;height:42px;padding:0 4px}
.stepper button{width:38px;height:38px;font-size:24px;font-weight:bold;color:#fff}
.stepper .q{min-width:22px;text-align:center;font-size:18px;font-weight:bold}
.cartbar{position:fixed;left:12px;right:12px;bottom:12px;z-index:20;height:58px;border-radius:29px;background:#e03131;color:#fff;
 display:flex;align-items:center;justify-content:space-between;padding:0 22px;font-size:18px;font-weight:bold;box-shadow:0 4px 14px rgba(224,49,49,.4)}
.line{display:flex;gap:12px;align-items:center;padding:14px 16px;background:#fff;border-bottom:1px solid #eceef1}
.line .info{flex:1}
.hint{padding:8px 16px;font-size:15px;color:#5f6670}
.totals{margin:12px;padding:12px 16px;background:#fff;border-radius:12px}
.totals div{display:flex;justify-content:space-between;padding:5px 0;font-size:17px}
.totals .grand{font-weight:bold;font-size:19px;border-top:1px solid #e5e7eb;margin-top:6px;padding-top:10px}
.primary{display:block;margin:16px 12px;height:56px;border-radius:28px;background:#e03131!important;color:#fff!important;font-size:19px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:56px}
.block{margin:12px;padding:14px 16px;background:#fff;border-radius:12px}
.block label{display:block;font-size:17px;font-weight:bold;margin-bottom:10px}
.block input{width:100%;height:50px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:17px;outline:none}
.block input:focus{border-color:#e03131}
.pay{display:flex;gap:10px}
.pay button{flex:1;height:52px;border:2px solid #d0d4da;border-radius:10px;font-size:18px;font-weight:bold;background:#fff}
.pay button.sel{border-color:#e03131;background:#fff0f0;color:#c92a2a}
.error{color:#c92a2a;font-size:16px;font-weight:bold;padding:0 16px;min-height:20px}
.scrim{position:fixed;inset:0;z-index:70;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center}
.scrim[hidden],.overflow[hidden]{display:none}
.dialog{background:#fff;border-radius:16px;width:320px;padding:22px 22px 10px;box-shadow:0 10px 30px rgba(0,0,0,.3)}
.dialog h2{margin:0 0 10px;font-size:21px}
.dialog p{margin:0 0 14px;font-size:16px;color:#3b4048}
.dialog .acts{display:flex;justify-content:flex-end;gap:8px}
.dialog .acts button{padding:12px 16px;font-size:17px;font-weight:bold;color:#e03131;border-radius:8px}
.sheet{position:fixed;left:0;right:0;bottom:0;background:#fff;border-radius:16px 16px 0 0;padding:8px 0 16px}
.sheet .t{padding:12px 20px;font-size:16px;color:#5f6670}
.sheet button{display:block;width:100%;text-align:left;padding:16px 20px;font-size:18px}
.done{text-align:center;padding:40px 20px 10px}
.done .tick{width:96px;height:96px;border-radius:48px;background:#2f9e44;color:#fff;font-size:56px;line-height:96px;margin:0 auto 16px}
.done h2{font-size:26px;margin:0 0 8px}
.done .no{font-size:20px;font-weight:bold;color:#2b2f36}
`;

function appbar(title: string, opts: { back: boolean; brand?: boolean }): string {
  return `<header class="appbar">${opts.back ? `<button class="icon" aria-label="Back" onclick="history.back()">&larr;</button>` : ''}
<h1 class="${opts.brand ? 'brand' : ''}">${esc(title)}</h1>
<button class="icon" aria-label="More options" onclick="__tfMenu()">&#8942;</button></header>`;
}

function overflow(ctx: AppContext): string {
  return `<div id="overflow" class="overflow" data-overlay hidden role="menu">
<a href="${ctx.base}/orders" role="menuitem">My orders</a>
<a href="${ctx.base}/cart" role="menuitem">View cart</a>
<button role="menuitem" onclick="api('clear',{}).then(()=>location.reload())">Clear cart</button></div>`;
}

function bottomNav(ctx: AppContext, state: FoodState, on: 'home' | 'cart' | 'orders'): string {
  const n = cartCount(state.cart);
  const item = (id: typeof on, href: string, glyph: string, label: string): string =>
    `<a href="${href}" class="${on === id ? 'on' : ''}"><span class="g">${glyph}</span><span>${label}</span></a>`;
  return `<nav class="bottomnav">${item('home', `${ctx.base}/`, '&#8962;', 'Home')}${item('cart', `${ctx.base}/cart`, '&#9636;', n > 0 ? `Cart (${n})` : 'Cart')}${item('orders', `${ctx.base}/orders`, '&#9776;', 'Orders')}</nav>`;
}

const thumb = (r: Restaurant): string => `<div class="thumb" style="background:${r.color}">${esc(r.initials)}</div>`;

const cartCount = (cart: readonly CartLine[]): number => cart.reduce((s, l) => s + l.qty, 0);
function linePrice(l: CartLine): number {
  const dish = restaurantById(l.restaurantId)?.menu.find((m) => m.id === l.dishId);
  return (dish?.price ?? 0) * l.qty;
}
const subtotal = (cart: readonly CartLine[]): number => cart.reduce((s, l) => s + linePrice(l), 0);

function clientJs(ctx: AppContext): string {
  return `const BASE=${JSON.stringify(ctx.base)};
function api(a,b){return fetch(BASE+'/api/'+a,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(b)}).then(r=>r.json())}
`;
}

function render(title: string, ctx: AppContext, body: string, script = '', root = false): AppResponse {
  return {
    type: 'html',
    body: pageShell({ title, css: CSS, body: body + overflow(ctx), script: clientJs(ctx) + script, bodyAttrs: root ? 'data-app-root' : '' }),
  };
}

function visit(state: FoodState, page: Visit['page'], restaurantId?: string): void {
  state.seq += 1;
  state.visits.push(restaurantId === undefined ? { page, seq: state.seq } : { page, restaurantId, seq: state.seq });
}

function homePage(state: FoodState, ctx: AppContext, q: string): AppResponse {
  visit(state, 'home');
  const needle = q.trim().toLowerCase();
  if (needle) {
    state.seq += 1;
    state.searches.push({ q: q.trim(), seq: state.seq });
  }
  const list = state.restaurantOrder
    .map((id) => restaurantById(id))
    .filter((r): r is Restaurant => r !== undefined)
    .filter((r) => !needle || r.name.toLowerCase().includes(needle) || r.cuisine.toLowerCase().includes(needle));
  const cards = list
    .map(
      (r) => `<a class="card" href="${ctx.base}/r/${r.id}">${thumb(r)}<div><div class="name">${esc(r.name)}</div>
<div class="muted">${esc(r.cuisine)}</div><div class="meta"><span class="star">&#9733;</span> ${r.rating.toFixed(1)} &middot; ${state.eta[r.id] ?? 30} min &middot; $1.99 delivery</div></div></a>`,
    )
    .join('');
  const header = needle
    ? `<div class="section"><span>Results for &ldquo;${esc(q.trim())}&rdquo;</span><a href="${ctx.base}/">Clear</a></div>`
    : `<div class="promo"><b>Free delivery this week</b>On all orders over $20</div><div class="section"><span>Restaurants near you</span></div>`;
  const body = `${appbar('Foodie', { back: false, brand: true })}
<form class="search" method="get" action="${ctx.base}/" role="search"><input name="q" type="search" placeholder="Search restaurants" value="${esc(q)}" autocomplete="off" aria-label="Search restaurants"><button type="submit">Search</button></form>
${header}${cards || `<div class="empty">No restaurants match &ldquo;${esc(q.trim())}&rdquo;</div>`}<div class="spacer"></div>${bottomNav(ctx, state, 'home')}`;
  return render('Foodie', ctx, body, '', true);
}

function restaurantPage(state: FoodState, ctx: AppContext, r: Restaurant): AppResponse {
  visit(state, 'restaurant', r.id);
  const qty = (dishId: string): number => state.cart.find((l) => l.restaurantId === r.id && l.dishId === dishId)?.qty ?? 0;
  const rows = r.menu
    .map((m) => {
      const n = qty(m.id);
      return `<div class="dish" data-dish="${m.id}"><div class="info"><div class="dname">${esc(m.name)}</div><div class="muted">${esc(m.description)}</div>
<div class="price">${formatPrice(m.price)}</div></div>
<button class="add" aria-label="Add ${esc(m.name)}" onclick="chg('${m.id}',1)" ${n > 0 ? 'hidden' : ''}>Add</button>
<div class="stepper" ${n > 0 ? '' : 'hidden'}><button aria-label="Decrease ${esc(m.name)}" onclick="chg('${m.id}',-1)">&minus;</button><span class="q">${n}</span><button aria-label="Increase ${esc(m.name)}" onclick="chg('${m.id}',1)">+</button></div></div>`;
    })
    .join('');
  const n = cartCount(state.cart);
  const body = `${appbar(r.name, { back: true })}
<div class="hero">${thumb(r)}<div><div class="name">${esc(r.name)}</div><div class="muted">${esc(r.cuisine)}</div>
<div class="meta"><span class="star">&#9733;</span> ${r.rating.toFixed(1)} &middot; ${state.eta[r.id] ?? 30} min</div></div></div>
<div class="section"><span>Menu</span></div>${rows}<div class="spacer"></div>
<a id="cartbar" class="cartbar" href="${ctx.base}/cart" ${n > 0 ? '' : 'hidden'}><span id="cartcount">View cart &middot; ${n} item${n === 1 ? '' : 's'}</span><span id="carttotal">${formatPrice(subtotal(state.cart))}</span></a>`;
  const script = `const RID=${JSON.stringify(r.id)};
function chg(d,delta){api('cart',{restaurantId:RID,dishId:d,delta}).then(s=>{
 for(const row of document.querySelectorAll('[data-dish]')){const q=s.qty[row.dataset.dish]||0;
  row.querySelector('.add').hidden=q>0;row.querySelector('.stepper').hidden=q===0;row.querySelector('.q').textContent=q}
 document.getElementById('cartbar').hidden=s.count===0;
 document.getElementById('cartcount').textContent='View cart \\u00b7 '+s.count+' item'+(s.count===1?'':'s');
 document.getElementById('carttotal').textContent=s.total})}`;
  return render(r.name, ctx, body, script);
}

function cartPage(state: FoodState, ctx: AppContext): AppResponse {
  visit(state, 'cart');
  const lines = state.cart
    .map((l) => {
      const r = restaurantById(l.restaurantId);
      const dish = r?.menu.find((m) => m.id === l.dishId);
      if (!r || !dish) return '';
      return `<div class="line" data-line="${r.id}/${dish.id}" data-name="${esc(dish.name)}"><div class="info"><div class="dname" style="font-size:18px;font-weight:bold">${esc(dish.name)}</div>
<div class="muted">${esc(r.name)}</div><div class="price" style="font-weight:bold;margin-top:4px">${formatPrice(linePrice(l))}</div></div>
<div class="stepper"><button aria-label="Decrease ${esc(dish.name)}" onclick="chg('${r.id}','${dish.id}',-1)">&minus;</button><span class="q">${l.qty}</span><button aria-label="Increase ${esc(dish.name)}" onclick="chg('${r.id}','${dish.id}',1)">+</button></div></div>`;
    })
    .join('');
  const sub = subtotal(state.cart);
  const body = state.cart.length
    ? `${appbar('Your cart', { back: true })}<div class="hint">Press and hold an item for more options</div>${lines}
<div class="totals"><div><span>Subtotal</span><span>${formatPrice(sub)}</span></div><div><span>Delivery fee</span><span>${formatPrice(DELIVERY_FEE)}</span></div>
<div class="grand"><span>Total</span><span>${formatPrice(sub + DELIVERY_FEE)}</span></div></div>
<a class="primary" href="${ctx.base}/checkout">Go to checkout</a><div class="spacer"></div>
<div id="ctx" class="scrim" data-overlay hidden onclick="if(event.target===this)this.hidden=true"><div class="sheet" role="menu"><div class="t" id="ctxname"></div>
<button role="menuitem" id="ctxremove">Remove from cart</button><button role="menuitem" onclick="document.getElementById('ctx').hidden=true">Cancel</button></div></div>`
    : `${appbar('Your cart', { back: true })}<div class="empty">Your cart is empty<br><br><a href="${ctx.base}/" style="color:#e03131;font-weight:bold">Browse restaurants</a></div>${bottomNav(ctx, state, 'cart')}`;
  const script = `function chg(r,d,delta){api('cart',{restaurantId:r,dishId:d,delta}).then(()=>location.reload())}
let timer=null,target=null,longFired=false;
function openCtx(line){if(!document.getElementById('ctx').hidden)return;longFired=true;target=line;document.getElementById('ctxname').textContent=line.dataset.name;document.getElementById('ctx').hidden=false}
for(const line of document.querySelectorAll('[data-line]')){
 line.addEventListener('touchstart',e=>{if(e.target.closest('button'))return;longFired=false;clearTimeout(timer);timer=setTimeout(()=>openCtx(line),500)},{passive:true});
 line.addEventListener('touchmove',()=>clearTimeout(timer),{passive:true});
 // Lifting the finger after a long press must not also "click" the menu that just opened.
 line.addEventListener('touchend',e=>{clearTimeout(timer);if(longFired){e.preventDefault();longFired=false}});
 line.addEventListener('contextmenu',e=>{e.preventDefault();clearTimeout(timer);openCtx(line)});
}
const rm=document.getElementById('ctxremove');if(rm)rm.onclick=()=>{const [r,d]=target.dataset.line.split('/');api('remove',{restaurantId:r,dishId:d}).then(()=>location.reload())};`;
  return render('Your cart', ctx, body, script);
}

function checkoutPage(state: FoodState, ctx: AppContext): AppResponse {
  visit(state, 'checkout');
  const sub = subtotal(state.cart);
  const pay = PAYMENTS.map(
    (p) => `<button data-pay="${p}" class="${state.checkout.payment === p ? 'sel' : ''}" role="radio" aria-checked="${state.checkout.payment === p}" onclick="setPay('${p}')">${state.checkout.payment === p ? '&#10003; ' : ''}${p}</button>`,
  ).join('');
  const body = `${appbar('Checkout', { back: true })}
<div class="block"><label for="address">Delivery address</label><input id="address" name="address" type="text" placeholder="Street and number" autocomplete="off" value="${esc(state.checkout.address)}"></div>
<div class="block"><label>Payment method</label><div class="pay" role="radiogroup">${pay}</div></div>
<div class="totals"><div><span>Items (${cartCount(state.cart)})</span><span>${formatPrice(sub)}</span></div><div><span>Delivery fee</span><span>${formatPrice(DELIVERY_FEE)}</span></div>
<div class="grand"><span>Total</span><span>${formatPrice(sub + DELIVERY_FEE)}</span></div></div>
<div class="error" id="err"></div>
<button class="primary" id="place" onclick="place()">Place order</button><div class="spacer"></div>
<div id="confirm" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Confirm order?"><h2>Confirm order?</h2>
<p>Your order total is ${formatPrice(sub + DELIVERY_FEE)}.</p><div class="acts"><button onclick="document.getElementById('confirm').hidden=true">Cancel</button><button id="confirmbtn" onclick="confirmOrder()">Confirm</button></div></div></div>`;
  const script = `const addr=document.getElementById('address');let pay=${JSON.stringify(state.checkout.payment)};const empty=${state.cart.length === 0};
addr.addEventListener('input',()=>api('address',{address:addr.value}));
function setPay(p){pay=p;api('payment',{payment:p});for(const b of document.querySelectorAll('[data-pay]')){const on=b.dataset.pay===p;b.classList.toggle('sel',on);b.setAttribute('aria-checked',String(on));b.textContent=(on?'\\u2713 ':'')+b.dataset.pay}}
function place(){const err=document.getElementById('err');
 if(empty){err.textContent='Your cart is empty';return}
 if(!addr.value.trim()){err.textContent='Please enter a delivery address';return}
 if(!pay){err.textContent='Please choose a payment method';return}
 err.textContent='';addr.blur();document.getElementById('confirm').hidden=false}
function confirmOrder(){api('place',{}).then(s=>{if(s.ok)location.href=BASE+'/order/'+s.orderNo;else{document.getElementById('confirm').hidden=true;document.getElementById('err').textContent=s.error}})}`;
  return render('Checkout', ctx, body, script);
}

function orderPage(state: FoodState, ctx: AppContext, orderNo: number): AppResponse {
  const o = state.orders.find((x) => x.orderNo === orderNo);
  if (!o) return { status: 404, type: 'html', body: pageShell({ title: 'Not found', css: CSS, body: '<div class="empty">Order not found</div>' }) };
  visit(state, 'order_placed');
  const items = o.lines
    .map((l) => {
      const r = restaurantById(l.restaurantId);
      const dish = r?.menu.find((m) => m.id === l.dishId);
      return `<div><span>${l.qty} &times; ${esc(dish?.name ?? l.dishId)}</span><span>${formatPrice(linePrice(l))}</span></div>`;
    })
    .join('');
  const body = `${appbar('Order status', { back: false })}
<div class="done"><div class="tick">&#10003;</div><h2>Order placed</h2><div class="no">Order #${o.orderNo}</div>
<p class="muted">Delivering to ${esc(o.address)} &middot; Paying by ${o.payment}</p></div>
<div class="totals">${items}<div class="grand"><span>Total</span><span>${formatPrice(o.totalCents)}</span></div></div>
<a class="primary" href="${ctx.base}/">Back to home</a>`;
  return render('Order placed', ctx, body);
}

function ordersPage(state: FoodState, ctx: AppContext): AppResponse {
  visit(state, 'orders');
  const rows = [...state.orders]
    .reverse()
    .map((o) => `<a class="card" href="${ctx.base}/order/${o.orderNo}"><div><div class="name">Order #${o.orderNo}</div><div class="muted">${esc(o.address)} &middot; ${o.payment}</div><div class="meta">${formatPrice(o.totalCents)}</div></div></a>`)
    .join('');
  const body = `${appbar('My orders', { back: true })}${rows || '<div class="empty">No orders yet</div>'}<div class="spacer"></div>${bottomNav(ctx, state, 'orders')}`;
  return render('My orders', ctx, body);
}

const json = (v: unknown, status = 200): AppResponse => ({ status, type: 'json', body: JSON.stringify(v) });
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function cartSnapshot(state: FoodState, restaurantId: string): unknown {
  const qty: Record<string, number> = {};
  for (const l of state.cart) if (l.restaurantId === restaurantId) qty[l.dishId] = l.qty;
  return { qty, count: cartCount(state.cart), total: formatPrice(subtotal(state.cart)) };
}

function handleApi(state: FoodState, action: string, body: Record<string, unknown>): AppResponse {
  switch (action) {
    case 'cart': {
      const r = restaurantById(str(body.restaurantId));
      const dish = r?.menu.find((m) => m.id === str(body.dishId));
      const delta = typeof body.delta === 'number' ? Math.sign(body.delta) : 0;
      if (!r || !dish || delta === 0) return json({ error: 'bad item' }, 400);
      const line = state.cart.find((l) => l.restaurantId === r.id && l.dishId === dish.id);
      if (line) line.qty = Math.min(20, line.qty + delta);
      else if (delta > 0) state.cart.push({ restaurantId: r.id, dishId: dish.id, qty: 1 });
      state.cart = state.cart.filter((l) => l.qty > 0);
      return json(cartSnapshot(state, r.id));
    }
    case 'remove':
      state.cart = state.cart.filter((l) => !(l.restaurantId === str(body.restaurantId) && l.dishId === str(body.dishId)));
      return json({ ok: true });
    case 'clear':
      state.cart = [];
      return json({ ok: true });
    case 'address':
      state.checkout.address = str(body.address).slice(0, 200);
      return json({ ok: true });
    case 'payment': {
      const p = PAYMENTS.find((x) => x === str(body.payment));
      if (!p) return json({ error: 'bad payment' }, 400);
      state.checkout.payment = p;
      return json({ ok: true });
    }
    case 'place': {
      if (state.cart.length === 0) return json({ ok: false, error: 'Your cart is empty' });
      if (!state.checkout.address.trim()) return json({ ok: false, error: 'Please enter a delivery address' });
      const payment: Payment | null = state.checkout.payment;
      if (!payment) return json({ ok: false, error: 'Please choose a payment method' });
      state.seq += 1;
      const orderNo = state.nextOrderNo++;
      state.orders.push({
        orderNo,
        lines: state.cart.map((l) => ({ ...l })),
        address: state.checkout.address.trim(),
        payment,
        totalCents: subtotal(state.cart) + DELIVERY_FEE,
        seq: state.seq,
      });
      state.cart = [];
      state.checkout = { address: '', payment: null };
      return json({ ok: true, orderNo });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleFood(state: FoodState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') {
    if (parts[0] === 'api' && parts[1]) {
      const body = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
      return handleApi(state, parts[1], body);
    }
    return json({ error: 'not found' }, 404);
  }
  const [head, arg] = parts;
  if (head === undefined) return homePage(state, ctx, req.query.get('q') ?? '');
  if (head === 'r' && arg) {
    const r = restaurantById(arg);
    if (r) return restaurantPage(state, ctx, r);
  }
  if (head === 'cart') return cartPage(state, ctx);
  if (head === 'checkout') return checkoutPage(state, ctx);
  if (head === 'orders') return ordersPage(state, ctx);
  if (head === 'order' && arg) return orderPage(state, ctx, Number(arg));
  return { status: 404, type: 'html', body: pageShell({ title: 'Not found', css: CSS, body: '<div class="empty">Page not found</div>' }) };
}
