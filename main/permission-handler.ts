import type { Session } from 'electron';

/**
 * Nodescope needs no camera, notifications, geolocation, clipboard-read or any other web
 * permission (saving goes through main's dialog), so every request and check is denied.
 */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
