import { SESSION_HEADER, readSessionToken } from './token-reader.js';

describe('spec 5.1: the session token is read from header x-svc-auth, then the cookie of that name', () => {
  it('uses the header name x-svc-auth', () => {
    expect(SESSION_HEADER).toBe('x-svc-auth');
  });

  it('reads the x-svc-auth header', () => {
    expect(readSessionToken({ 'x-svc-auth': 'header-token' })).toBe('header-token');
  });

  it('reads the x-svc-auth cookie when there is no header', () => {
    expect(readSessionToken({ cookie: 'theme=dark; x-svc-auth=cookie-token; lang=en' })).toBe('cookie-token');
  });

  it('prefers the header over the cookie', () => {
    expect(readSessionToken({ 'x-svc-auth': 'header-token', cookie: 'x-svc-auth=cookie-token' })).toBe(
      'header-token',
    );
  });

  it('falls back to the cookie when the header is blank', () => {
    expect(readSessionToken({ 'x-svc-auth': '  ', cookie: 'x-svc-auth=cookie-token' })).toBe('cookie-token');
  });

  it('trims surrounding whitespace of the header value', () => {
    expect(readSessionToken({ 'x-svc-auth': '  header-token ' })).toBe('header-token');
  });

  it('takes the first value of a repeated header', () => {
    expect(readSessionToken({ 'x-svc-auth': ['first', 'second'] })).toBe('first');
  });

  it('reads no other cookie', () => {
    expect(readSessionToken({ cookie: 'session=abc; x-svc-authx=def' })).toBeUndefined();
  });

  it('answers undefined without header or cookie, or with a blank cookie', () => {
    expect(readSessionToken({})).toBeUndefined();
    expect(readSessionToken({ cookie: 'x-svc-auth=' })).toBeUndefined();
  });
});

describe('spec 5.1: Authorization: Bearer is not used', () => {
  it('ignores a bearer token', () => {
    expect(readSessionToken({ authorization: 'Bearer some-token' })).toBeUndefined();
  });

  it('reads the header or cookie, not the bearer token, when both are sent', () => {
    expect(readSessionToken({ authorization: 'Bearer bearer-token', 'x-svc-auth': 'header-token' })).toBe(
      'header-token',
    );
    expect(
      readSessionToken({ authorization: 'Bearer bearer-token', cookie: 'x-svc-auth=cookie-token' }),
    ).toBe('cookie-token');
  });
});
