/**
 * The services a host can `OPEN` on the simulated device, tried in order.
 * Each module owns the services of one kind (adbd: `daemon/services.cpp` `daemon_service_to_fd`).
 */
import type {DeviceTransport} from '../transport.ts';
import type {DeviceSocket} from '../types.ts';
import {shellServices} from './shell.ts';
import {syncService, framebufferService} from './files.ts';
import {systemServices} from './system.ts';

/** Serves one opened stream until it ends. */
export type ServiceRunner = (socket: DeviceSocket) => Promise<void>;

/**
 * One kind of service. `open` is called with the service string (no trailing NUL) before the
 * device answers the host's `OPEN`: it returns (or resolves with) the function that serves the
 * stream, or `undefined` when it does not serve that string (the next handler is tried; when none
 * serves it, the device answers `CLSE`, which the library reports as "Socket open failed").
 */
export interface ServiceHandler {
  open(service: string, transport: DeviceTransport): ServiceRunner | undefined | Promise<ServiceRunner | undefined>;
}

/** A fresh list of every service the device serves. */
export function defaultServices(): ServiceHandler[] {
  return [...shellServices, syncService, framebufferService, ...systemServices];
}
