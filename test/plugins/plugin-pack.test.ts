import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { loadPluginCatalog } from "../../packages/model/src/plugins/load-catalog.ts";
import { packIcons } from "../../scripts/plugin-pack.ts";

/** `pnpm plugin:pack` on folders and ZIPs shaped like each vendor's download (made here: the sets are not ours). */

const svg = (label: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><rect width="48" height="48" fill="#f90"/><title>${label}</title></svg>`;

function tree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), "ams-pack-src-"));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

/** A ZIP of the folder's content, as the vendor's download comes (made with Info-ZIP's zip). */
function zipOf(dir: string): string {
  const file = `${dir}.zip`;
  execFileSync("zip", ["-qr", file, "."], { cwd: dir });
  return file;
}

const outDir = () => path.join(mkdtempSync(path.join(tmpdir(), "ams-pack-out-")), "plugins");

describe("pnpm plugin:pack", () => {
  test("AWS: Architecture-Service-Icons_*/Arch_*/<size>/ — one size kept, readable slugs, unsafe and oversized left out", () => {
    const aws = tree({
      "Architecture-Service-Icons_07312025/Arch_Compute/48/Arch_Amazon-EC2_48.svg": svg("EC2"),
      "Architecture-Service-Icons_07312025/Arch_Compute/16/Arch_Amazon-EC2_16.svg": svg("EC2 small"),
      "Architecture-Service-Icons_07312025/Arch_Compute/64/Arch_Amazon-EC2_64.svg": svg("EC2 large"),
      "Architecture-Service-Icons_07312025/Arch_Compute/48/Arch_AWS-Lambda_48.svg": svg("Lambda"),
      "Architecture-Service-Icons_07312025/Arch_Compute/32/Arch_AWS-Lambda_32.svg": svg("Lambda 32"),
      "Architecture-Service-Icons_07312025/Arch_Database/48/Arch_Amazon-DynamoDB_48.svg": `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
      "Architecture-Service-Icons_07312025/Arch_Storage/48/Arch_Amazon-Simple-Storage-Service_48.svg": `<svg xmlns="http://www.w3.org/2000/svg"><path d="${"M0 0 ".repeat(120_000)}"/></svg>`,
      "Architecture-Service-Icons_07312025/Arch_Compute/48/Arch_Amazon-EC2_48.png": Buffer.from([0x89, 0x50]),
      ".DS_Store": "x",
    });
    const root = outDir();
    const report = packIcons(zipOf(aws), {
      id: "aws",
      name: "AWS Architecture Icons",
      out: path.join(root, "aws"),
    });
    const manifest = JSON.parse(readFileSync(path.join(root, "aws", "plugin.json"), "utf8"));
    expect(manifest).toMatchObject({ id: "aws", name: "AWS Architecture Icons", type: "icon-pack" });
    expect(manifest.icons).toEqual([
      { slug: "aws-amazon-ec2", name: "Amazon EC2", file: "icons/aws-amazon-ec2.svg" },
      { slug: "aws-aws-lambda", name: "AWS Lambda", file: "icons/aws-aws-lambda.svg" },
    ]);
    expect(readFileSync(path.join(root, "aws", "icons", "aws-amazon-ec2.svg"), "utf8")).toContain("<title>EC2</title>");
    const reasons = Object.fromEntries(report.skipped.map((s) => [s.file.split("/").pop(), s.reason]));
    expect(reasons["Arch_Amazon-EC2_16.svg"]).toMatch(/another size .* \(kept size 48\)/);
    expect(reasons["Arch_Amazon-EC2_64.svg"]).toMatch(/another size/);
    expect(reasons["Arch_AWS-Lambda_32.svg"]).toMatch(/another size/);
    expect(reasons["Arch_Amazon-DynamoDB_48.svg"]).toMatch(/unsafe content/);
    expect(reasons["Arch_Amazon-Simple-Storage-Service_48.svg"]).toMatch(/too large/);
    expect(reasons["Arch_Amazon-EC2_48.png"]).toBe("not an SVG file");
    // The folder is a plugin the service loads as it is.
    const catalog = loadPluginCatalog({ root });
    expect(catalog.byId.get("aws")?.icons.map((i) => i.slug)).toEqual(["aws-amazon-ec2", "aws-aws-lambda"]);
  });

  test("Azure: Azure_Public_Service_Icons/Icons/<category>/NNNNN-icon-service-*.svg; a duplicate name is reported", () => {
    const azure = tree({
      "Azure_Public_Service_Icons/Icons/compute/10021-icon-service-Virtual-Machine.svg": svg("VM"),
      "Azure_Public_Service_Icons/Icons/networking/10061-icon-service-Virtual-Networks.svg": svg("VNet"),
      "Azure_Public_Service_Icons/Icons/other/10999-icon-service-Virtual-Machine.svg": svg("VM again"),
      "Azure_Public_Service_Icons/Icons/databases/10130-icon-service-SQL-Database.svg": svg("SQL"),
      "Azure_Public_Service_Icons/LICENSE.txt": "terms",
    });
    const root = outDir();
    const report = packIcons(azure, { id: "azure", name: "Azure Architecture Icons", out: path.join(root, "azure") });
    const manifest = JSON.parse(readFileSync(path.join(root, "azure", "plugin.json"), "utf8"));
    expect(manifest.icons.map((i: { slug: string; name: string }) => [i.slug, i.name])).toEqual([
      ["azure-sql-database", "SQL Database"],
      ["azure-virtual-machine", "Virtual Machine"],
      ["azure-virtual-networks", "Virtual Networks"],
    ]);
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { file: "Azure_Public_Service_Icons/LICENSE.txt", reason: "not an SVG file" },
        expect.objectContaining({
          file: "Azure_Public_Service_Icons/Icons/other/10999-icon-service-Virtual-Machine.svg",
          reason: expect.stringMatching(/^duplicate of .*10021-icon-service-Virtual-Machine\.svg/),
        }),
      ]),
    );
    expect(loadPluginCatalog({ root }).byId.get("azure")?.icons).toHaveLength(3);
  });

  test("Google Cloud: a folder per product with SVG and PNG, through the command line", () => {
    const gcp = tree({
      "Google Cloud icons/compute/Compute-Engine/SVG/Compute-Engine-512-color.svg": svg("GCE"),
      "Google Cloud icons/compute/Compute-Engine/PNG/Compute-Engine-512-color.png": Buffer.from([0x89]),
      "Google Cloud icons/databases/Cloud-SQL/SVG/Cloud-SQL-512-color.svg": svg("SQL"),
      "Google Cloud icons/storage/Cloud-Storage/SVG/Cloud-Storage-512-color.svg": svg("GCS"),
    });
    const root = outDir();
    const out = execFileSync(
      process.execPath,
      ["scripts/plugin-pack.ts", gcp, "--id", "gcp", "--name", "Google Cloud icons", "--out", path.join(root, "gcp")],
      { encoding: "utf8" },
    );
    expect(out).toMatch(/3 icons, 1 files skipped/);
    expect(out).toMatch(/skipped .*Compute-Engine-512-color\.png: not an SVG file/);
    const catalog = loadPluginCatalog({ root });
    expect(catalog.byId.get("gcp")?.icons.map((i) => [i.slug, i.name])).toEqual([
      ["gcp-cloud-sql", "Cloud SQL"],
      ["gcp-cloud-storage", "Cloud Storage"],
      ["gcp-compute-engine", "Compute Engine"],
    ]);
  });
});
