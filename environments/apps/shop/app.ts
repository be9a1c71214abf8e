import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, actionSheet, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, renderPage, str } from '../mobile-kit.js';
import { esc } from '../shared.js';
import { CATEGORIES, SHIPPING, formatPrice, productById, type Product, type ShippingLabel } from './catalog.js';
import type { ShopLine, ShopState, ShopVisit } from './state.js';

const ACCENT = '#0b7285';
const CSS =
  kitCss(ACCENT, '#e3fafc') +
  `
.brand{font-size:24px!important;letter-spacing:.5px}
.banner{margin:12px;border-radius:14px;padding:18px;background:linear-gradient(120deg,#0b7285,#15aabf);color:#fff}
.banner b{display:block;font-size:21px;margin-bottom:4px}
.tiles{display:grid;grid-template-columns:1fr 1fr;gap:12px;padding:4px 12px}
.tile{background:#fff;border-radius:14px;padding:14px;box-shadow:0 1px 3px rgba(0,0,0,.12);display:flex;flex-direction:column;gap:10px}
.tile .sw{height:84px;border-radius:10px}
.tile .tn{font-size:18px;font-weight:bold}
.pcard{display:flex;gap:14px;align-items:center;margin:8px 12px;padding:12px;background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.pic{width:76px;height:76px;border-radius:12px;flex:none;position:relative;overflow:hidden}
.pic:after{content:'';position:absolute;left:18%;right:18%;top:30%;bottom:22%;background:rgba(255,255,255,.35);border-radius:10px 10px 4px 4px}
.pcard .name{font-size:18px;font-weight:bold;margin-bottom:4px}
.price{font-size:17px;font-weight:bold;color:#1f2328}
.sortbar{display:flex;justify-content:space-between;padding:12px 16px 4px;font-size:15px;color:#5a616b}
.hero{height:240px;position:relative}
.hero:after{content:'';position:absolute;left:30%;right:30%;top:25%;bottom:18%;background:rgba(255,255,255,.35);border-radius:18px 18px 6px 6px}
.pinfo{background:#fff;padding:14px 16px}
.pinfo h2{margin:0 0 6px;font-size:23px}
.opt{background:#fff;margin-top:10px;padding:12px 16px}
.opt h3{margin:0 0 10px;font-size:17px}
.sizes{display:flex;flex-direction:column}
.size{display:flex;align-items:center;gap:14px;height:56px;border-bottom:1px solid #eceef1;font-size:18px;text-align:left;width:100%}
.size .dot{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.size.sel .dot{border:7px solid ${ACCENT}}
.size.sel{font-weight:bold;color:${ACCENT}}
.buybar{position:fixed;left:0;right:0;bottom:0;z-index:20;background:#fff;border-top:1px solid #dde1e6;padding:10px 12px;display:flex;gap:10px;align-items:center}
.buybar .primary{margin:0;flex:1;height:52px;line-height:52px}
.wish{height:52px;padding:0 14px;border:2px solid ${ACCENT}!important;border-radius:26px;color:${ACCENT}!important;font-weight:bold;font-size:16px;background:#fff!important}
.wish.on{background:#e3fafc!important}
.bottomnav{position:fixed;left:0;right:0;bottom:0;height:64px;z-index:20;display:flex;background:#fff;border-top:1px solid #dde1e6}
.bottomnav a{flex:1;display:flex;align-items:center;justify-content:center;font-size:16px;color:#5a616b}
.bottomnav a.on{color:${ACCENT};font-weight:bold}
.line{display:flex;gap:12px;align-items:center;padding:14px 16px;background:#fff;border-bottom:1px solid #eceef1}
.line .info{flex:1}
.line .ln{font-size:17px;font-weight:bold}
.stepper{display:flex;align-items:center;gap:4px;border-radius:21px;border:2px solid ${ACCENT};height:42px;padding:0 4px}
.stepper button{width:36px;height:36px;font-size:24px;font-weight:bold;color:${ACCENT}}
.stepper .q{min-width:22px;text-align:center;font-size:18px;font-weight:bold}
.totals{margin:12px;padding:12px 16px;background:#fff;border-radius:12px}
.totals div{display:flex;justify-content:space-between;padding:5px 0;font-size:17px}
.totals .grand{font-weight:bold;font-size:19px;border-top:1px solid #e5e7eb;margin-top:6px;padding-top:10px}
.ship{display:flex;flex-direction:column;gap:10px}
.ship button{display:flex;justify-content:space-between;align-items:center;text-align:left;padding:12px 14px;border:2px solid #cfd4da;border-radius:10px;font-size:17px;background:#fff}
.ship button.sel{border-color:${ACCENT};background:#e3fafc}
.ship small{display:block;color:#5a616b;font-size:15px}
.done{text-align:center;padding:40px 20px 10px}
.done .tick{width:96px;height:96px;border-radius:48px;background:#2f9e44;color:#fff;font-size:56px;line-height:96px;margin:0 auto 16px}
.done h2{font-size:26px;margin:0 0 8px}
.done .no{font-size:20px;font-weight:bold}
.badge{display:inline-block;min-width:22px;height:22px;border-radius:11px;background:#fff;color:${ACCENT};font-size:14px;line-height:22px;text-align:center;font-weight:bold}
.low{color:#c92a2a;font-size:15px;font-weight:bold}
`;

const slug = (c: string): string => c.toLowerCase();
const categoryBySlug = (s: string): string | undefined => CATEGORIES.find((c) => slug(c) === decodeURIComponent(s).toLowerCase());
const cartCount = (cart: readonly ShopLine[]): number => cart.reduce((n, l) => n + l.qty, 0);
const linePrice = (l: ShopLine): number => (productById(l.productId)?.price ?? 0) * l.qty;
const subtotal = (cart: readonly ShopLine[]): number => cart.reduce((n, l) => n + linePrice(l), 0);
const shipPrice = (label: ShippingLabel | null): number => SHIPPING.find((s) => s.label === label)?.price ?? 0;

function visit(state: ShopState, page: ShopVisit['page'], id?: string): void {
  state.seq += 1;
  state.visits.push(id === undefined ? { page, seq: state.seq } : { page, id, seq: state.seq });
}

function menu(ctx: AppContext): string {
  return overflowMenu([
    { label: 'Wishlist', href: `${ctx.base}/wishlist` },
    { label: 'Cart', href: `${ctx.base}/cart` },
    { label: 'Home', href: `${ctx.base}/` },
  ]);
}

function nav(ctx: AppContext, state: ShopState, on: 'home' | 'wishlist' | 'cart'): string {
  const n = cartCount(state.cart);
  const a = (id: typeof on, href: string, label: string): string => `<a href="${href}" class="${on === id ? 'on' : ''}">${label}</a>`;
  return `<nav class="bottomnav">${a('home', `${ctx.base}/`, 'Home')}${a('wishlist', `${ctx.base}/wishlist`, 'Wishlist')}${a('cart', `${ctx.base}/cart`, n ? `Cart (${n})` : 'Cart')}</nav>`;
}

const cartIcon = (ctx: AppContext, state: ShopState): string =>
  `<a class="txt" href="${ctx.base}/cart" aria-label="Cart" style="line-height:44px">Cart <span class="badge" id="cartn">${cartCount(state.cart)}</span></a>`;

function page(ctx: AppContext, title: string, body: string, script = '', root = false): AppResponse {
  return renderPage({ title, css: CSS, ctx, body: body + menu(ctx), script, root });
}

function homePage(state: ShopState, ctx: AppContext): AppResponse {
  visit(state, 'home');
  const tint: Record<string, string> = { Sneakers: '#d9480f', 'T-Shirts': '#1c7ed6', Hoodies: '#5f3dc4', Jackets: '#f08c00' };
  const tiles = CATEGORIES.map(
    (c) => `<a class="tile" href="${ctx.base}/c/${slug(c)}"><div class="sw" style="background:${tint[c] ?? '#868e96'}"></div><div class="tn">${esc(c)}</div>
<div class="muted">${state.productOrder[c]?.length ?? 0} products</div></a>`,
  ).join('');
  const body = `<header class="appbar"><h1 class="brand">ShopMart</h1>${cartIcon(ctx, state)}<button class="icon" aria-label="More options" onclick="__tfMenu()">&#8942;</button></header>
<div class="banner"><b>Summer sale</b>Free standard shipping on every order</div>
<div class="section">Shop by category</div><div class="tiles">${tiles}</div><div class="spacer"></div>${nav(ctx, state, 'home')}`;
  return page(ctx, 'ShopMart', body, '', true);
}

function categoryPage(state: ShopState, ctx: AppContext, category: string): AppResponse {
  visit(state, 'category', category);
  const cards = (state.productOrder[category] ?? [])
    .map((id) => productById(id))
    .filter((x): x is Product => x !== undefined)
    .map(
      (x) => `<a class="pcard" href="${ctx.base}/p/${x.id}"><div class="pic" style="background:${x.tint}"></div><div><div class="name">${esc(x.name)}</div>
<div class="price">${formatPrice(x.price)}</div><div class="muted">${x.colours.length} colours &middot; ${esc(x.sizes[0] ?? '')}&ndash;${esc(x.sizes.at(-1) ?? '')}</div></div></a>`,
    )
    .join('');
  const body = `${appbar(category, { back: true, right: cartIcon(ctx, state) })}<div class="sortbar"><span>Sort by: Popular</span><span>${state.productOrder[category]?.length ?? 0} items</span></div>${cards}<div class="spacer"></div>`;
  return page(ctx, category, body);
}

function productPage(state: ShopState, ctx: AppContext, x: Product): AppResponse {
  visit(state, 'product', x.id);
  const saved = state.wishlist.includes(x.id);
  const stock = state.stock[x.id] ?? 10;
  const colours = x.colours
    .map((c, i) => `<button class="chip${i === 0 ? ' sel' : ''}" role="radio" aria-checked="${i === 0}" data-colour="${esc(c)}" onclick="pickColour(this)">${esc(c)}</button>`)
    .join('');
  const sizes = x.sizes
    .map((s) => `<button class="size" role="radio" aria-checked="false" data-size="${esc(s)}" onclick="pickSize(this)"><span class="dot"></span>Size ${esc(s)}</button>`)
    .join('');
  const body = `${appbar(x.category, { back: true, right: cartIcon(ctx, state) })}
<div class="hero" style="background:${x.tint}"></div>
<div class="pinfo"><h2>${esc(x.name)}</h2><div class="price" style="font-size:21px">${formatPrice(x.price)}</div>
<p class="muted" style="margin:8px 0 0">${esc(x.description)}</p>${stock <= 5 ? `<p class="low">Only ${stock} left</p>` : ''}</div>
<div class="opt"><h3>Colour: <span id="colname">${esc(x.colours[0] ?? '')}</span></h3><div class="chips" role="radiogroup">${colours}</div></div>
<div class="opt"><h3>Select size</h3><div class="error" id="err" style="padding:0 0 6px"></div><div class="sizes" role="radiogroup">${sizes}</div></div>
<div class="spacer" style="height:160px"></div>
<div class="buybar"><button class="wish${saved ? ' on' : ''}" id="wish" onclick="wish()">${saved ? 'Saved' : 'Save to wishlist'}</button>
<button class="primary" id="add" onclick="add()">Add to cart</button></div>`;
  const script = `const PID=${JSON.stringify(x.id)};let colour=${JSON.stringify(x.colours[0] ?? '')},size=null;
function pickColour(b){colour=b.dataset.colour;for(const c of document.querySelectorAll('[data-colour]')){const on=c===b;c.classList.toggle('sel',on);c.setAttribute('aria-checked',String(on))}document.getElementById('colname').textContent=colour}
function pickSize(b){size=b.dataset.size;document.getElementById('err').textContent='';for(const c of document.querySelectorAll('[data-size]')){const on=c===b;c.classList.toggle('sel',on);c.setAttribute('aria-checked',String(on))}}
function add(){if(!size){document.getElementById('err').textContent='Please select a size';toast('Please select a size');return}
 api('add',{productId:PID,colour,size}).then(s=>{document.getElementById('cartn').textContent=s.count;toast('Added to cart')})}
function wish(){api('wish',{productId:PID}).then(s=>{const b=document.getElementById('wish');b.classList.toggle('on',s.saved);b.textContent=s.saved?'Saved':'Save to wishlist';toast(s.saved?'Added to wishlist':'Removed from wishlist')})}`;
  return page(ctx, x.name, body, script);
}

function cartPage(state: ShopState, ctx: AppContext): AppResponse {
  visit(state, 'cart');
  const lines = state.cart
    .map((l, i) => {
      const x = productById(l.productId);
      if (!x) return '';
      return `<div class="line" data-line="${i}" data-name="${esc(x.name)}"><div class="pic" style="background:${x.tint};width:56px;height:56px"></div><div class="info"><div class="ln">${esc(x.name)}</div>
<div class="muted">${esc(l.colour)} &middot; Size ${esc(l.size)}</div><div class="price">${formatPrice(linePrice(l))}</div></div>
<div class="stepper"><button aria-label="Decrease ${esc(x.name)}" onclick="chg(${i},-1)">&minus;</button><span class="q">${l.qty}</span><button aria-label="Increase ${esc(x.name)}" onclick="chg(${i},1)">+</button></div></div>`;
    })
    .join('');
  const sub = subtotal(state.cart);
  const body = state.cart.length
    ? `${appbar('Your cart', { back: true })}<div class="hint">Press and hold an item for more options</div>${lines}
<div class="totals"><div><span>Items (${cartCount(state.cart)})</span><span>${formatPrice(sub)}</span></div><div class="grand"><span>Subtotal</span><span>${formatPrice(sub)}</span></div></div>
<a class="primary" href="${ctx.base}/checkout">Proceed to checkout</a><div class="spacer"></div>
${actionSheet('ctx', [
  { label: 'Remove from cart', js: "api('remove',{index:Number(ctxTarget.dataset.line)}).then(()=>location.replace(location.pathname+'?toast=Removed from cart'))" },
  { label: 'Move to wishlist', js: "api('move',{index:Number(ctxTarget.dataset.line)}).then(()=>location.replace(location.pathname+'?toast=Moved to wishlist'))" },
])}`
    : `${appbar('Your cart', { back: true })}<div class="empty">Your cart is empty<br><br><a href="${ctx.base}/" style="color:${ACCENT};font-weight:bold">Continue shopping</a></div>${nav(ctx, state, 'cart')}`;
  const script = `function chg(i,d){api('qty',{index:i,delta:d}).then(()=>location.replace(location.pathname))}
for(const l of document.querySelectorAll('[data-line]'))longPress(l,el=>openSheet('ctx',el,el.dataset.name));`;
  return page(ctx, 'Your cart', body, script);
}

function checkoutPage(state: ShopState, ctx: AppContext): AppResponse {
  visit(state, 'checkout');
  const sub = subtotal(state.cart);
  const ship = SHIPPING.map(
    (s) => `<button data-ship="${s.label}" class="${state.checkout.shipping === s.label ? 'sel' : ''}" role="radio" aria-checked="${state.checkout.shipping === s.label}" aria-label="${s.label}" onclick="setShip('${s.label}')">
<span><b>${s.label}</b><small>${s.detail}</small></span><span>${s.price ? formatPrice(s.price) : 'Free'}</span></button>`,
  ).join('');
  const body = `${appbar('Checkout', { back: true })}
<div class="field"><label for="address">Shipping address</label><input id="address" type="text" placeholder="Street and number" autocomplete="off" value="${esc(state.checkout.address)}"></div>
<div class="field"><label>Shipping method</label><div class="ship" role="radiogroup">${ship}</div></div>
<div class="totals"><div><span>Items (${cartCount(state.cart)})</span><span>${formatPrice(sub)}</span></div><div><span>Shipping</span><span id="shipfee">${formatPrice(shipPrice(state.checkout.shipping))}</span></div>
<div class="grand"><span>Total</span><span id="total">${formatPrice(sub + shipPrice(state.checkout.shipping))}</span></div></div>
<div class="error" id="err"></div><button class="primary" onclick="place()">Place order</button><div class="spacer"></div>
${confirmDialog('confirm', { title: 'Place this order?', text: 'You will be charged when the order ships.', confirm: 'Confirm', confirmJs: 'confirmOrder()' })}`;
  const script = `const addr=document.getElementById('address');let ship=${JSON.stringify(state.checkout.shipping)};const empty=${state.cart.length === 0};const SUB=${sub};
const FEES=${JSON.stringify(Object.fromEntries(SHIPPING.map((s) => [s.label, s.price])))};
const fmt=c=>'$'+(c/100).toFixed(2);
addr.addEventListener('input',()=>api('address',{address:addr.value}));
function setShip(s){ship=s;api('shipping',{shipping:s});for(const b of document.querySelectorAll('[data-ship]')){const on=b.dataset.ship===s;b.classList.toggle('sel',on);b.setAttribute('aria-checked',String(on))}
 document.getElementById('shipfee').textContent=fmt(FEES[s]);document.getElementById('total').textContent=fmt(SUB+FEES[s])}
function place(){const err=document.getElementById('err');
 if(empty){err.textContent='Your cart is empty';return}
 if(!addr.value.trim()){err.textContent='Please enter a shipping address';return}
 if(!ship){err.textContent='Please choose a shipping method';return}
 err.textContent='';addr.blur();openDlg('confirm')}
function confirmOrder(){api('place',{}).then(s=>{if(s.ok)location.href=BASE+'/order/'+s.orderNo;else{document.getElementById('confirm').hidden=true;document.getElementById('err').textContent=s.error}})}`;
  return page(ctx, 'Checkout', body, script);
}

function orderPage(state: ShopState, ctx: AppContext, orderNo: number): AppResponse {
  const o = state.orders.find((x) => x.orderNo === orderNo);
  if (!o) return notFound(CSS, 'Order not found');
  visit(state, 'order', String(orderNo));
  const items = o.lines
    .map((l) => `<div><span>${l.qty} &times; ${esc(productById(l.productId)?.name ?? l.productId)}</span><span>${formatPrice(linePrice(l))}</span></div>`)
    .join('');
  const body = `${appbar('Order status', { back: false })}
<div class="done"><div class="tick">&#10003;</div><h2>Order confirmed</h2><div class="no">Order #${o.orderNo}</div>
<p class="muted">${esc(o.shipping)} shipping to ${esc(o.address)}</p></div>
<div class="totals">${items}<div class="grand"><span>Total</span><span>${formatPrice(o.totalCents)}</span></div></div>
<a class="primary" href="${ctx.base}/">Continue shopping</a>`;
  return page(ctx, 'Order confirmed', body);
}

function wishlistPage(state: ShopState, ctx: AppContext): AppResponse {
  visit(state, 'wishlist');
  const cards = state.wishlist
    .map((id) => productById(id))
    .filter((x): x is Product => x !== undefined)
    .map((x) => `<a class="pcard" href="${ctx.base}/p/${x.id}"><div class="pic" style="background:${x.tint}"></div><div><div class="name">${esc(x.name)}</div><div class="price">${formatPrice(x.price)}</div></div></a>`)
    .join('');
  const body = `${appbar('Wishlist', { back: true })}${cards || '<div class="empty">Your wishlist is empty</div>'}<div class="spacer"></div>${nav(ctx, state, 'wishlist')}`;
  return page(ctx, 'Wishlist', body);
}

function handleApi(state: ShopState, action: string, body: Record<string, unknown>): AppResponse {
  const index = typeof body.index === 'number' ? body.index : -1;
  switch (action) {
    case 'add': {
      const x = productById(str(body.productId));
      const colour = str(body.colour);
      const size = str(body.size);
      if (!x || !x.colours.includes(colour) || !x.sizes.includes(size)) return json({ error: 'bad item' }, 400);
      const line = state.cart.find((l) => l.productId === x.id && l.colour === colour && l.size === size);
      if (line) line.qty = Math.min(9, line.qty + 1);
      else state.cart.push({ productId: x.id, colour, size, qty: 1 });
      return json({ count: cartCount(state.cart) });
    }
    case 'qty': {
      const line = state.cart[index];
      const delta = typeof body.delta === 'number' ? Math.sign(body.delta) : 0;
      if (!line || delta === 0) return json({ error: 'bad line' }, 400);
      line.qty = Math.min(9, line.qty + delta);
      state.cart = state.cart.filter((l) => l.qty > 0);
      return json({ count: cartCount(state.cart) });
    }
    case 'remove':
    case 'move': {
      const line = state.cart[index];
      if (!line) return json({ error: 'bad line' }, 400);
      state.cart.splice(index, 1);
      if (action === 'move' && !state.wishlist.includes(line.productId)) state.wishlist.push(line.productId);
      return json({ ok: true });
    }
    case 'wish': {
      const x = productById(str(body.productId));
      if (!x) return json({ error: 'bad product' }, 400);
      const saved = !state.wishlist.includes(x.id);
      state.wishlist = saved ? [...state.wishlist, x.id] : state.wishlist.filter((id) => id !== x.id);
      return json({ saved });
    }
    case 'address':
      state.checkout.address = str(body.address).slice(0, 200);
      return json({ ok: true });
    case 'shipping': {
      const s = SHIPPING.find((o) => o.label === str(body.shipping));
      if (!s) return json({ error: 'bad shipping' }, 400);
      state.checkout.shipping = s.label;
      return json({ ok: true });
    }
    case 'place': {
      if (state.cart.length === 0) return json({ ok: false, error: 'Your cart is empty' });
      if (!state.checkout.address.trim()) return json({ ok: false, error: 'Please enter a shipping address' });
      const shipping = state.checkout.shipping;
      if (!shipping) return json({ ok: false, error: 'Please choose a shipping method' });
      state.seq += 1;
      const orderNo = state.nextOrderNo++;
      state.orders.push({
        orderNo,
        lines: state.cart.map((l) => ({ ...l })),
        address: state.checkout.address.trim(),
        shipping,
        totalCents: subtotal(state.cart) + shipPrice(shipping),
        seq: state.seq,
      });
      state.cart = [];
      state.checkout = { address: '', shipping: null };
      return json({ ok: true, orderNo });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleShop(state: ShopState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') {
    if (parts[0] === 'api' && parts[1]) return handleApi(state, parts[1], bodyOf(req.body));
    return json({ error: 'not found' }, 404);
  }
  const [head, arg] = parts;
  if (head === undefined) return homePage(state, ctx);
  if (head === 'c' && arg) {
    const c = categoryBySlug(arg);
    if (c) return categoryPage(state, ctx, c);
  }
  if (head === 'p' && arg) {
    const x = productById(arg);
    if (x) return productPage(state, ctx, x);
  }
  if (head === 'cart') return cartPage(state, ctx);
  if (head === 'checkout') return checkoutPage(state, ctx);
  if (head === 'wishlist') return wishlistPage(state, ctx);
  if (head === 'order' && arg) return orderPage(state, ctx, Number(arg));
  return notFound(CSS);
}
