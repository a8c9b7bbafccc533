/**
 * Signature Version 4 for S3, checked where s3rver cannot check it (it accepts any V4 signature).
 *
 * 1. An oracle written here from AWS's description of SigV4 ("Authenticating requests: using the
 *    Authorization header", Amazon S3 API reference) reproduces AWS's published examples for S3:
 *    GET Object with a Range header, PUT Object, GET Bucket lifecycle, GET Bucket (list objects);
 *    all with access key AKIAIOSFODNN7EXAMPLE, the documented example secret, 20130524T000000Z.
 * 2. aws4fetch reproduces the same examples, once told to sign what the examples sign.
 * 3. Every kind of request the S3 storage sends is signed as the oracle says, with the payload hash
 *    of the bytes actually sent.
 */
import { AwsClient } from "aws4fetch";
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createS3Storage } from "./s3-file-storage.ts";
import { EMPTY_PAYLOAD_SHA256 } from "./s3-client.ts";

const ACCESS_KEY = "AKIAIOSFODNN7EXAMPLE";
const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const DATETIME = "20130524T000000Z";
const HOST = "examplebucket.s3.amazonaws.com";

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

interface OracleRequest {
  method: string;
  /** The path as sent on the wire, already URI-encoded. */
  path: string;
  query: Array<[string, string]>;
  /** The headers to sign, any case; `host` included. */
  headers: Record<string, string>;
  payloadHash: string;
  datetime?: string;
  region?: string;
  secret?: string;
}

/** SigV4 for S3, from AWS's description; shares no code with aws4fetch. */
function oracle(r: OracleRequest) {
  const datetime = r.datetime ?? DATETIME;
  const region = r.region ?? "us-east-1";
  const headers = Object.entries(r.headers)
    .map(([k, v]) => [k.toLowerCase(), v.trim().replace(/ +/g, " ")] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signedHeaders = headers.map(([k]) => k).join(";");
  const query = r.query
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonical = [
    r.method,
    r.path,
    query,
    headers.map(([k, v]) => `${k}:${v}\n`).join(""),
    signedHeaders,
    r.payloadHash,
  ].join("\n");
  const scope = `${datetime.slice(0, 8)}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", datetime, scope, sha256(canonical)].join("\n");
  let key: string | Buffer = `AWS4${r.secret ?? SECRET}`;
  for (const part of [datetime.slice(0, 8), region, "s3", "aws4_request"]) key = hmac(key, part);
  return {
    canonicalRequestHash: sha256(canonical),
    signedHeaders,
    signature: createHmac("sha256", key).update(stringToSign).digest("hex"),
  };
}

function parseAuthorization(header: string | null) {
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/
      .exec(header ?? "");
  if (!m) throw new Error(`Unexpected Authorization header: ${header}`);
  return { accessKey: m[1], date: m[2], region: m[3], signedHeaders: m[4], signature: m[5] };
}

const examples = {
  getObjectWithRange: {
    method: "GET",
    path: "/test.txt",
    query: [],
    headers: { host: HOST, range: "bytes=0-9", "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256, "x-amz-date": DATETIME },
    payloadHash: EMPTY_PAYLOAD_SHA256,
  },
  putObject: {
    method: "PUT",
    path: "/test%24file.text",
    query: [],
    headers: {
      host: HOST,
      date: "Fri, 24 May 2013 00:00:00 GMT",
      "x-amz-date": DATETIME,
      "x-amz-storage-class": "REDUCED_REDUNDANCY",
      "x-amz-content-sha256": sha256("Welcome to Amazon S3."),
    },
    payloadHash: sha256("Welcome to Amazon S3."),
  },
  getLifecycle: {
    method: "GET",
    path: "/",
    query: [["lifecycle", ""]],
    headers: { host: HOST, "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256, "x-amz-date": DATETIME },
    payloadHash: EMPTY_PAYLOAD_SHA256,
  },
  listObjects: {
    method: "GET",
    path: "/",
    query: [["max-keys", "2"], ["prefix", "J"]],
    headers: { host: HOST, "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256, "x-amz-date": DATETIME },
    payloadHash: EMPTY_PAYLOAD_SHA256,
  },
} satisfies Record<string, OracleRequest>;

describe("SigV4 oracle against AWS's published S3 examples", () => {
  it("GET Object with Range: canonical request hash and signature as published", () => {
    const got = oracle(examples.getObjectWithRange);
    expect(got.canonicalRequestHash).toBe("7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    expect(got.signedHeaders).toBe("host;range;x-amz-content-sha256;x-amz-date");
    expect(got.signature).toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  });

  it("PUT Object, GET Bucket lifecycle and GET Bucket (list objects) as published", () => {
    expect(examples.putObject.payloadHash).toBe("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    expect(oracle(examples.putObject).signature).toBe(
      "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
    );
    expect(oracle(examples.getLifecycle).signature).toBe(
      "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543",
    );
    expect(oracle(examples.listObjects).signature).toBe(
      "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
    );
  });
});

describe("aws4fetch against the same examples", () => {
  const client = new AwsClient({
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET,
    service: "s3",
    region: "us-east-1",
  });

  it("GET Object with Range matches once Range is signed and the empty-payload hash is given", async () => {
    const req = await client.sign(`https://${HOST}/test.txt`, {
      method: "GET",
      headers: { Range: "bytes=0-9", "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256 },
      aws: { datetime: DATETIME, allHeaders: true },
    });
    expect(req.headers.get("authorization")).toBe(
      `AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/20130524/us-east-1/s3/aws4_request, ` +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  it("by default it leaves Range unsigned and sends UNSIGNED-PAYLOAD, which is why the example differs", async () => {
    const plain = await client.sign(`https://${HOST}/test.txt`, {
      method: "GET",
      headers: { Range: "bytes=0-9" },
      aws: { datetime: DATETIME },
    });
    expect(plain.headers.get("x-amz-content-sha256")).toBe("UNSIGNED-PAYLOAD");
    const auth = parseAuthorization(plain.headers.get("authorization"));
    expect(auth.signedHeaders).toBe("host;x-amz-content-sha256;x-amz-date");
    expect(auth.signature).not.toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    // Still a valid signature of what it does sign: S3 accepts an unsigned Range header.
    expect(auth.signature).toBe(
      oracle({
        ...examples.getObjectWithRange,
        headers: { host: HOST, "x-amz-content-sha256": "UNSIGNED-PAYLOAD", "x-amz-date": DATETIME },
        payloadHash: "UNSIGNED-PAYLOAD",
      }).signature,
    );
  });

  it("PUT Object (key with $), GET ?lifecycle and GET ?max-keys=2&prefix=J match", async () => {
    const put = await client.sign(`https://${HOST}/test$file.text`, {
      method: "PUT",
      headers: {
        Date: "Fri, 24 May 2013 00:00:00 GMT",
        "x-amz-storage-class": "REDUCED_REDUNDANCY",
        "x-amz-content-sha256": examples.putObject.payloadHash,
      },
      body: "Welcome to Amazon S3.",
      aws: { datetime: DATETIME },
    });
    expect(parseAuthorization(put.headers.get("authorization")).signature)
      .toBe("98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");

    for (
      const [url, expected] of [
        [`https://${HOST}/?lifecycle`, "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"],
        [`https://${HOST}/?max-keys=2&prefix=J`, "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"],
      ]
    ) {
      const req = await client.sign(url, {
        method: "GET",
        headers: { "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256 },
        aws: { datetime: DATETIME },
      });
      expect(parseAuthorization(req.headers.get("authorization")).signature).toBe(expected);
    }
  });
});

describe("requests of the S3 storage are signed as the oracle says", () => {
  interface Captured {
    req: Request;
    body: Uint8Array;
  }

  /** A store whose requests are captured and answered just enough for each operation to finish. */
  function capturing(endpoint?: string) {
    const captured: Captured[] = [];
    const storage = createS3Storage({
      endpoint,
      bucket: "examplebucket",
      region: "eu-central-1",
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET,
      now: () => new Date("2013-05-24T00:00:00Z"),
      fetch: async (input, init) => {
        const req = new Request(input, init);
        captured.push({ req, body: new Uint8Array(await req.clone().arrayBuffer()) });
        const url = new URL(req.url);
        if (req.method === "GET" && url.searchParams.has("list-type")) {
          return new Response("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>");
        }
        if (req.method === "GET") {
          return new Response("0123456789", { status: 206, headers: { "Content-Range": "bytes 0-9/100" } });
        }
        if (req.method === "POST" && url.searchParams.has("uploads")) {
          return new Response(
            "<InitiateMultipartUploadResult><UploadId>a/b+c=</UploadId></InitiateMultipartUploadResult>",
          );
        }
        if (req.method === "POST") return new Response("<CompleteMultipartUploadResult/>");
        if (req.method === "PUT") return new Response(null, { headers: { ETag: '"etag"' } });
        return new Response(null, { status: 204 });
      },
    });
    return { storage, captured };
  }

  function checkSigned({ req, body }: Captured) {
    const url = new URL(req.url);
    const auth = parseAuthorization(req.headers.get("authorization"));
    expect(auth).toMatchObject({ accessKey: ACCESS_KEY, date: "20130524", region: "eu-central-1" });
    expect(req.headers.get("x-amz-date")).toBe(DATETIME);
    // The payload hash is of the bytes sent, never UNSIGNED-PAYLOAD: S3 then refuses a damaged body.
    const payloadHash = req.headers.get("x-amz-content-sha256");
    expect(payloadHash).toBe(sha256(body));
    const names = auth.signedHeaders.split(";");
    expect(names).toContain("host");
    expect(names).toContain("x-amz-content-sha256");
    const headers = Object.fromEntries(names.map((n) => [n, n === "host" ? url.host : req.headers.get(n) ?? ""]));
    const expected = oracle({
      method: req.method,
      path: url.pathname,
      query: [...url.searchParams],
      headers,
      payloadHash: payloadHash!,
      region: "eu-central-1",
    });
    expect(auth.signedHeaders).toBe(expected.signedHeaders);
    expect(auth.signature).toBe(expected.signature);
  }

  const body = (n: number) =>
    new ReadableStream<Uint8Array>({
      start(ctrl) {
        ctrl.enqueue(new Uint8Array(n).map((_, i) => i & 0xff));
        ctrl.close();
      },
    });

  for (const endpoint of [undefined, "http://127.0.0.1:9000"]) {
    it(`every operation, ${endpoint ? "path-style" : "virtual-hosted"}`, async () => {
      const { storage, captured } = capturing(endpoint);
      await storage.read("tracks/a-1.mp3", { range: { start: 0, end: 9 } });
      await storage.write("avatars/x.jpg", body(1000));
      await storage.write("tracks/big.mp3", body(5 * 1024 * 1024 + 10));
      await Array.fromAsync(storage.listKeys("tracks/"));
      await storage.delete("tracks/a-1.mp3");
      await storage.stat("tracks/a-1.mp3");

      const kinds = captured.map(({ req }) => `${req.method} ${new URL(req.url).search}`);
      expect(kinds).toEqual([
        "GET ",
        "PUT ",
        "POST ?uploads",
        "PUT ?partNumber=1&uploadId=a%2Fb%2Bc%3D",
        "PUT ?partNumber=2&uploadId=a%2Fb%2Bc%3D",
        "POST ?uploadId=a%2Fb%2Bc%3D",
        "GET ?list-type=2&prefix=tracks%2F&max-keys=1000",
        "DELETE ",
        "HEAD ",
      ]);
      expect(new URL(captured[0].req.url).host).toBe(
        endpoint ? "127.0.0.1:9000" : "examplebucket.s3.eu-central-1.amazonaws.com",
      );
      expect(captured[0].req.headers.get("range")).toBe("bytes=0-9");
      expect(captured[1].req.headers.get("content-type")).toBe("image/jpeg");
      for (const c of captured) checkSigned(c);
    });
  }
});
