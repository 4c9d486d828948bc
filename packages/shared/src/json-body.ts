/**
 * A JSON answer already serialized (the whole list of a large model, written from the database's bytes): answered
 * as it is, with the contract's status, where `c.json()` would serialize the handler's value. The bytes must be the
 * JSON of a value the contract's schema accepts; the verb that builds them is tested against JSON.stringify.
 */
export class JsonBody {
  readonly body: Uint8Array | string;
  constructor(body: Uint8Array | string) {
    this.body = body;
  }
}
