// Test tooling, preloaded into s3rver (`node --require`, see s3-server.ts): the two multipart calls
// s3rver 3.7.1 lacks and the resumable upload (issue 26) needs, answered from s3rver's own store
// (`<bucket>/._S3rver_uploads/<UploadId>/<part number>` and `<n>.md5`):
//   ListParts             GET    /<bucket>/<key>?uploadId=…   (AWS S3 API reference: ListParts)
//   AbortMultipartUpload  DELETE /<bucket>/<key>?uploadId=…   (AWS S3 API reference: AbortMultipartUpload)
// Everything else is s3rver's. Signatures are not checked, as s3rver does not check V4 ones.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const script = process.argv[1];
const S3rver = require(path.join(path.dirname(fs.realpathSync(script)), ".."));

function xmlEscape(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function noSuchUpload(ctx, uploadId) {
  ctx.status = 404;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code>` +
    `<Message>The specified upload does not exist.</Message><UploadId>${xmlEscape(uploadId)}</UploadId></Error>`;
}

async function multipartExtras(ctx, next) {
  const uploadId = ctx.query.uploadId;
  const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
  const listing = ctx.method === "GET" && ctx.query.partNumber === undefined;
  if (!m || typeof uploadId !== "string" || !/^[0-9a-f]+$/.test(uploadId) || !(listing || ctx.method === "DELETE")) {
    return await next();
  }
  const bucket = decodeURIComponent(m[1]);
  const key = decodeURIComponent(m[2]);
  const dir = path.join(ctx.app.store.getResourcePath(bucket, undefined, "uploads"), uploadId);
  if (!fs.existsSync(dir)) return noSuchUpload(ctx, uploadId);
  if (ctx.method === "DELETE") {
    fs.rmSync(dir, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  const parts = fs.readdirSync(dir)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b)
    .map((n) => {
      const file = path.join(dir, String(n));
      const stat = fs.statSync(file);
      const md5 = fs.existsSync(`${file}.md5`) ? fs.readFileSync(`${file}.md5`, "utf8").trim() : "";
      return `<Part><PartNumber>${n}</PartNumber><LastModified>${stat.mtime.toISOString()}</LastModified>` +
        `<ETag>"${md5}"</ETag><Size>${stat.size}</Size></Part>`;
    });
  ctx.status = 200;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${xmlEscape(bucket)}</Bucket>` +
    `<Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>` +
    `${parts.join("")}</ListPartsResult>`;
}

const run = S3rver.prototype.run;
S3rver.prototype.run = function (...args) {
  this.middleware.unshift(multipartExtras);
  return run.apply(this, args);
};
