import { z } from 'zod';

/** About 512 KB of image, as base64. */
export const MAX_PROFILE_IMAGE_DATA = 700_000;
/** Longer than any photo address a provider hands out, short of what browsers stop at. */
export const MAX_PROFILE_IMAGE_URL = 2_048;

const IMAGE_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,/;
const base64 = z.base64().min(1);

/** What a profile image may be, for the 400 that refuses one. */
export const PROFILE_IMAGE_RULE =
  'an https: address of the image, a data URL of a PNG, JPEG, GIF or WebP image (data:image/png;base64,...), or the image as base64';

/**
 * Whether a value may be stored as an account's photo: the image itself, as a data URL of a PNG,
 * JPEG, GIF or WebP image or as its base64 alone (as a provider hands over the bytes), or an
 * https: address of it (as Google's `picture` claim gives it). Never SVG or another media type
 * (the photo is shown as an image and nothing else), never a script or other scheme, and not
 * http: (a page served over https would load it in the clear, or not at all), nor an address
 * carrying a user name or password.
 */
export function isProfileImage(value: string): boolean {
  if (/^https:/i.test(value)) return isImageAddress(value);
  if (value.length > MAX_PROFILE_IMAGE_DATA) return false;
  const data = value.startsWith('data:') ? value.replace(IMAGE_DATA_URL, '') : value;
  return base64.safeParse(data).success;
}

function isImageAddress(value: string): boolean {
  if (value.length > MAX_PROFILE_IMAGE_URL || /\s/.test(value)) return false;
  let address: URL;
  try {
    address = new URL(value);
  } catch {
    return false;
  }
  return address.protocol === 'https:' && address.hostname !== '' && !address.username && !address.password;
}
