// JSON over fetch. Every non-GET carries `x-takuge: 1` (the server's CSRF check); errors
// reject with the server's {code, message} so pages can show the words.
export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (method !== 'GET' && method !== 'HEAD') init.headers['x-takuge'] = '1';
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw { code: 'network', message: String(e && e.message ? e.message : e), status: 0 };
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data && data.error ? data.error : { code: 'http_' + res.status, message: text.slice(0, 200) };
    throw { ...err, status: res.status };
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body === undefined ? {} : body);
